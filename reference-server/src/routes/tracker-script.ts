import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { fail } from '../errors/service-error';

/** The plain URL: an hour, then revalidated by ETag, so a server upgrade reaches every storefront within the hour. */
const hourly = 'public, max-age=3600, stale-while-revalidate=86400';
/** `?v=<the served version>`: the content behind that URL never changes (@svc/tracker README, "Caching"). */
const immutable = 'public, max-age=31536000, immutable';

interface Script {
  body: Buffer;
  etag: string;
}

const trackerVersion = (createRequire(import.meta.url)('@svc/tracker/package.json') as { version: string }).version;

/**
 * The two builds of `@svc/tracker`: the lean script (within its 2,048 B budget) and the full one that adds consent
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

/** If-None-Match matches when any listed tag (weak comparison, RFC 9110 section 13.1.2) is ours, or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * GET /js/svc-tracker.js (and the full build), with Cache-Control and a strong ETag (spec/rules.md "What the service does",
 * item 8). Any page may load it, as a classic or a module script: module scripts are fetched in CORS mode, and
 * pages with `Cross-Origin-Embedder-Policy` need `Cross-Origin-Resource-Policy: cross-origin`.
 */
export async function trackerScriptRoutes(app: FastifyInstance): Promise<void> {
  for (const file of scripts) {
    let script: Script | null = null;
    app.get(`/js/${file}`, async (request, reply) => {
      script ??= await loadScript(file);
      if (!script) throw fail('dashboardFailed', { message: 'The tracker script is not built; run pnpm build' });
      const { v } = request.query as { v?: unknown };
      reply
        .header('ETag', script.etag)
        .header('Cache-Control', v === trackerVersion ? immutable : hourly)
        .header('X-Svc-Tracker-Version', trackerVersion)
        .header('Access-Control-Allow-Origin', '*')
        .header('Cross-Origin-Resource-Policy', 'cross-origin');
      if (matches(request.headers['if-none-match'], script.etag)) return reply.status(304).send();
      return reply.type('application/javascript; charset=utf-8').send(script.body);
    });
  }
}
