import type { FastifyInstance } from 'fastify';
import { partnerLinkControlRoutes } from './core/partners-links';
import { programControlRoutes } from './core/programs';
import { stateControlRoutes } from './core/state';

/** Test-control: reset, programs, partners, links, key rotation, clock, faults, records. */
export async function coreControlRoutes(app: FastifyInstance): Promise<void> {
  app.register(stateControlRoutes);
  app.register(programControlRoutes);
  app.register(partnerLinkControlRoutes);
}
