import type { FastifyInstance } from 'fastify';
import { createTestEvent, parseEventType, runSyntheticChain } from '../domain/cli/test-event';
import { eventsPage } from '../domain/dashboard/event-view';
import { programPerformance } from '../domain/dashboard/performance';
import { reportRange } from '../domain/dashboard/report-range';
import { dashboardStatus } from '../domain/dashboard/status';
import { checkTestEvents, sinceFrom } from '../domain/dashboard/test-events';
import { computeReadiness } from '../domain/readiness/compute';
import { dashboardContext } from './dashboard-auth';
import { objectBody } from '../json/fields';

type ProgramParams = { Params: { programId: string } };
type Body = Record<string, unknown> | undefined;

/** spec/rules.md "Dashboard routes": /api/tracking/* behind a dashboard session and an active membership on the program. */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const { deps, access } = dashboardContext(app);

  app.get<ProgramParams>('/api/tracking/status/:programId', async (request) => {
    const { program, role } = await access(request, request.params.programId);
    return { data: await dashboardStatus(deps(), program, role) };
  });

  app.get<ProgramParams & { Querystring: Record<string, unknown> }>('/api/tracking/events/:programId', async (request) => {
    const { program } = await access(request, request.params.programId);
    return { data: await eventsPage(deps().db, program.id, request.query) };
  });

  app.get<ProgramParams & { Querystring: Record<string, unknown> }>('/api/tracking/performance/:programId', async (request) => {
    const { program } = await access(request, request.params.programId);
    const range = reportRange(request.query, app.svc.clock.now());
    return { data: await programPerformance(deps(), program.id, range) };
  });

  app.get<ProgramParams>('/api/tracking/readiness/:programId', async (request) => {
    const { program } = await access(request, request.params.programId);
    return { data: await computeReadiness(deps(), program) };
  });

  // Same behaviour as POST /api/v1/cli/test-event in single mode; the program comes from the body.
  app.post<{ Body: Body }>('/api/tracking/test', async (request) => {
    const body = objectBody(request.body);
    const { program } = await access(request, body.program_id);
    return { data: await createTestEvent(deps(), program, parseEventType(body.event_type)) };
  });

  app.post<{ Body: Body }>('/api/tracking/check-test-events', async (request) => {
    const body = objectBody(request.body);
    const { program } = await access(request, body.program_id);
    return { data: await checkTestEvents(deps(), program.id, sinceFrom(body.since, app.svc.clock.now())) };
  });

  // The synthetic chain of POST /api/v1/cli/test-event (`type: chain`), under the same hourly cap.
  app.post<ProgramParams>('/api/tracking/run-verification/:programId', async (request) => {
    const { program } = await access(request, request.params.programId);
    const result = await runSyntheticChain(deps(), program);
    return { data: { passed: result.events.length === 3 && result.events.every((e) => e.ok), result } };
  });
}
