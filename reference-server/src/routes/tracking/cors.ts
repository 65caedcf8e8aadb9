import type { FastifyInstance } from 'fastify';

/** Headers a browser may read on click and lead responses. */
const exposed = 'X-Request-ID, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/**
 * CORS for the browser-callable routes (click, lead; spec/rules.md "Authentication" rule 6). The preflight cannot name a
 * program (it has no body), so it allows any origin (spec/openapi.yaml `Preflight`, **Decision**); the program's
 * allowed origins are enforced on the request itself, which answers 403 without an allow header.
 */
export function registerCors(app: FastifyInstance, paths: readonly string[]): void {
  for (const path of paths) {
    app.options(path, async (request, reply) => {
      const origin = request.headers.origin;
      return reply
        .status(204)
        .header('Access-Control-Allow-Origin', typeof origin === 'string' ? origin : '*')
        .header('Access-Control-Allow-Methods', 'POST, OPTIONS')
        .header('Access-Control-Allow-Headers', 'Content-Type, Authorization, X-Request-ID')
        .header('Access-Control-Max-Age', 86400)
        .header('Vary', 'Origin')
        .send();
    });
  }
  // A callback hook, not an async one: every click and lead runs it (http/request-id.ts says why).
  app.addHook('onSend', (request, reply, payload, done) => {
    const origin = request.headers.origin;
    if (typeof origin === 'string' && request.method !== 'OPTIONS' && reply.statusCode !== 403) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Expose-Headers', exposed);
      reply.header('Vary', 'Origin');
    }
    done(null, payload);
  });
}
