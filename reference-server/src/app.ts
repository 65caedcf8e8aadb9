import Fastify, { type FastifyInstance } from 'fastify';

export interface AppOptions {
  logger?: boolean;
}

/** Builds the Fastify app; never listens (server.ts does). */
export function buildApp(options: AppOptions = {}): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false });
  app.get('/healthz', async () => ({ status: 'ok' as const }));
  return app;
}
