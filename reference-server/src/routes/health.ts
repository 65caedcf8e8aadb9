import type { FastifyInstance } from 'fastify';
import { fail } from '../errors/service-error';

/** `GET /healthz`: the process serves requests and its database answers. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', async () => {
    try {
      await app.svc.store.ping();
    } catch (cause) {
      throw fail('shuttingDown', { cause });
    }
    return { status: 'ok' as const };
  });
}
