import type { FastifyInstance } from 'fastify';
import { riskEventsPage } from '../domain/risk/list';
import { keyProgramOf, programKeyHook } from '../http/program-key';
import { dashboardContext } from './dashboard-auth';
import { domainContext } from './domain-context';

type Query = { Querystring: Record<string, unknown> };

/** The risk events (dashboard session, and `GET /api/v1/risk-events` with the program key: the same query and answers). */
export async function riskRoutes(app: FastifyInstance): Promise<void> {
  const { deps, access } = dashboardContext(app);
  app.get<{ Params: { programId: string } } & Query>('/api/dashboard/programs/:programId/risk-events', async (request) => {
    const { program } = await access(request, request.params.programId);
    return riskEventsPage(deps(), program, request.query);
  });
  const keyed = { config: { rateLimit: 'cli' as const }, onRequest: programKeyHook(app, 'cli') };
  app.get<Query>('/api/v1/risk-events', keyed, async (request) => riskEventsPage(domainContext(app), keyProgramOf(request), request.query));
}
