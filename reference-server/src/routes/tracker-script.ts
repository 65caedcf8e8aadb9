import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { fail } from '../http/http-error';

const cacheControl = 'public, max-age=300, stale-while-revalidate=86400';

interface Script {
  body: Buffer;
  etag: string;
}

/** Reads the built `@svc/tracker` script once; null while it is not built (the route answers 500, never crashes). */
async function loadScript(): Promise<Script | null> {
  try {
    const path = createRequire(import.meta.url).resolve('@svc/tracker/svc-tracker.js');
    const body = await readFile(path);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
  } catch {
    return null;
  }
}

/** If-None-Match matches when any listed tag (weak comparison, RFC 9110 §13.1.2) is ours, or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** GET /js/svc-tracker.js, with Cache-Control and a strong ETag (§What the service does, item 8). */
export async function trackerScriptRoutes(app: FastifyInstance): Promise<void> {
  let script: Script | null = null;
  app.get('/js/svc-tracker.js', async (request, reply) => {
    script ??= await loadScript();
    if (!script) throw fail('dashboardFailed', { message: 'The tracker script is not built; run pnpm build' });
    reply.header('ETag', script.etag).header('Cache-Control', cacheControl);
    if (matches(request.headers['if-none-match'], script.etag)) return reply.status(304).send();
    return reply.type('application/javascript; charset=utf-8').send(script.body);
  });
}
