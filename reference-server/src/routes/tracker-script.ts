import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { fail } from '../errors/service-error';

const cacheControl = 'public, max-age=300, stale-while-revalidate=86400';

interface Script {
  body: Buffer;
  etag: string;
}

/**
 * The two builds of `@svc/tracker`: the lean script (within its 1.5 kB budget) and the full one that adds consent
 * and cross-domain hand-off (`data-svc-consent`, `data-svc-domains`).
 */
const scripts = ['svc-tracker.js', 'svc-tracker.full.js'] as const;

/** Reads a built `@svc/tracker` script once; null while it is not built (the route answers 500, never crashes). */
async function loadScript(file: (typeof scripts)[number]): Promise<Script | null> {
  try {
    const path = createRequire(import.meta.url).resolve(`@svc/tracker/${file}`);
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

/** GET /js/svc-tracker.js (and the full build), with Cache-Control and a strong ETag (§What the service does, item 8). */
export async function trackerScriptRoutes(app: FastifyInstance): Promise<void> {
  for (const file of scripts) {
    let script: Script | null = null;
    app.get(`/js/${file}`, async (request, reply) => {
      script ??= await loadScript(file);
      if (!script) throw fail('dashboardFailed', { message: 'The tracker script is not built; run pnpm build' });
      reply.header('ETag', script.etag).header('Cache-Control', cacheControl);
      if (matches(request.headers['if-none-match'], script.etag)) return reply.status(304).send();
      return reply.type('application/javascript; charset=utf-8').send(script.body);
    });
  }
}
