import type { FastifyInstance } from 'fastify';

/** How long `/readyz` waits for each dependency: a probe answers quickly, or the dependency counts as down. */
export const dependencyTimeoutMs = 1_000;

type Check = 'ok' | 'down';

/** `ok` when `probe` resolves truthy within the timeout; `down` when it fails, says no or takes longer. */
async function within(probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), dependencyTimeoutMs)));
  try {
    return (await Promise.race([probe().then((answer) => answer !== false), late])) ? 'ok' : 'down';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /readyz` (spec/openapi.yaml, `ready`, **Decision**): whether every dependency answers now: the database (a
 * real query) and Redis when configured. 503 names each one down; the server may still serve (without Redis it
 * counts rate limits in memory), which `/healthz`, the liveness check, keeps saying.
 */
export async function readyRoutes(app: FastifyInstance): Promise<void> {
  app.get('/readyz', async (_request, reply) => {
    const { store, rateLimitStore } = app.svc;
    const [database, redis] = await Promise.all([
      within(() => store.ping()),
      rateLimitStore.ping ? within(() => rateLimitStore.ping!()) : ('not_configured' as const),
    ]);
    const ready = database === 'ok' && redis !== 'down';
    reply.code(ready ? 200 : 503);
    return { status: ready ? ('ok' as const) : ('degraded' as const), checks: { database, redis } };
  });
}
