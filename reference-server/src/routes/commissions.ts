import { domainContext } from './domain-context';
import type { FastifyInstance } from 'fastify';
import { accountActor } from '../domain/audit/actor';
import { createAdjustment } from '../domain/commissions/adjust';
import { commissionsPage } from '../domain/commissions/list';
import { positiveId } from '../domain/partners/fields';
import { keyProgramOf, programKeyHook } from '../http/program-key';
import { objectBody } from '../json/fields';
import { dashboardContext } from './dashboard-auth';

type Query = { Querystring: Record<string, unknown> };

/**
 * The commission list (dashboard session, and `GET /api/v1/commissions` with the program key: the same query and
 * answers) and adjustments (owners, dashboard), spec tag `partners`.
 */
export async function commissionRoutes(app: FastifyInstance): Promise<void> {
  const { deps, access } = dashboardContext(app);
  const base = '/api/dashboard/programs/:programId';

  app.get<{ Params: { programId: string } } & Query>(`${base}/commissions`, async (request) => {
    const { program } = await access(request, request.params.programId);
    return commissionsPage(deps(), program, request.query);
  });

  app.post<{ Params: { programId: string; partnerId: string }; Body: Record<string, unknown> | undefined }>(
    `${base}/partners/:partnerId/adjustments`,
    async (request, reply) => {
      const { program, role, account } = await access(request, request.params.programId);
      const partnerId = positiveId(request.params.partnerId, 'partnerIdInvalid');
      const body = objectBody(request.body);
      return reply
        .status(201)
        .send({ data: await createAdjustment(deps(), { program, role, by: accountActor(account), partnerId, body }) });
    },
  );

  const keyContext = () => domainContext(app);
  const keyed = { config: { rateLimit: 'cli' as const }, onRequest: programKeyHook(app, 'cli') };
  app.get<Query>('/api/v1/commissions', keyed, async (request) => commissionsPage(keyContext(), keyProgramOf(request), request.query));
}
