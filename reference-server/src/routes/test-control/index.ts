import type { FastifyInstance } from 'fastify';
import { accountControlRoutes } from './accounts';
import { coreControlRoutes } from './core';
import { processorControlRoutes } from './processor';

/** The `/_test/*` control API (spec tag `test-control`), mounted only with test control on. */
export async function testControlRoutes(app: FastifyInstance): Promise<void> {
  app.register(coreControlRoutes);
  app.register(accountControlRoutes);
  app.register(processorControlRoutes);
}
