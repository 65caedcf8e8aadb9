import type { FastifyInstance } from 'fastify';
import { computeReadiness } from '../domain/readiness/compute';
import { requireProgramKey } from '../http/program-key';
import { domainDeps } from './tracking/deps';

/** GET /api/v1/programs/me/readiness: the verdict, no `success` field; errors in the typed envelope only. */
export async function readinessRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/v1/programs/me/readiness', { config: { rateLimit: 'readiness', failure: 'readinessFailed' } }, async (request) => {
    const program = await requireProgramKey(request, app.svc.store, app.svc.clock, 'readiness');
    return computeReadiness(domainDeps(app, request), program);
  });
}
