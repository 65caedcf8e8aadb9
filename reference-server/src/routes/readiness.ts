import type { FastifyInstance } from 'fastify';
import { computeReadiness } from '../domain/readiness/compute';
import { keyProgramOf, programKeyHook } from '../http/program-key';
import { domainContext } from './domain-context';

/** GET /api/v1/programs/me/readiness: the verdict, no `success` field; errors in the typed envelope only. */
export async function readinessRoutes(app: FastifyInstance): Promise<void> {
  const config = { rateLimit: 'readiness', failure: 'readinessFailed' } as const;
  app.get('/api/v1/programs/me/readiness', { config, onRequest: programKeyHook(app, 'readiness') }, async (request) => {
    return computeReadiness(domainContext(app, request), keyProgramOf(request));
  });
}
