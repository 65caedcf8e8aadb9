import type { FastifyInstance } from 'fastify';
import { accountActor } from '../domain/audit/actor';
import { approveCommission, declineCommission } from '../domain/commissions/decide';
import { positiveId } from '../domain/partners/fields';
import { createLink, listProgramLinks, setProgramLinkEnabled } from '../domain/partners/links';
import { changePartner, createPartner, listPartnerSummaries } from '../domain/partners/partners';
import { commissionsCsv } from '../domain/payouts/export';
import { payoutCsv, payoutDetail, payoutHistory } from '../domain/payouts/history';
import { recordPayout } from '../domain/payouts/payout';
import { dashboardContext } from './dashboard-auth';
import { objectBody } from '../json/fields';

type ProgramParams = { Params: { programId: string } };
type Body = Record<string, unknown> | undefined;

/**
 * The merchant's partners, referral links, commission export, decisions and payouts (spec tag `partners`), behind a dashboard
 * session and an active membership on the program, like every /api/dashboard/programs/{programId} route.
 */
export async function dashboardPartnerRoutes(app: FastifyInstance): Promise<void> {
  const { deps, access } = dashboardContext(app);
  const base = '/api/dashboard/programs/:programId';

  app.post<ProgramParams & { Body: Body }>(`${base}/partners`, async (request, reply) => {
    const { program, account } = await access(request, request.params.programId);
    return reply.status(201).send({ data: await createPartner(deps(), program, objectBody(request.body), accountActor(account)) });
  });

  app.get<ProgramParams>(`${base}/partners`, async (request) => {
    const { program } = await access(request, request.params.programId);
    return { data: { partners: await listPartnerSummaries(deps(), program) } };
  });

  app.patch<{ Params: { programId: string; partnerId: string }; Body: Body }>(`${base}/partners/:partnerId`, async (request) => {
    const { program, account } = await access(request, request.params.programId);
    const partnerId = positiveId(request.params.partnerId, 'partnerIdInvalid');
    return { data: await changePartner(deps(), program, partnerId, objectBody(request.body), accountActor(account)) };
  });

  app.post<ProgramParams & { Body: Body }>(`${base}/links`, async (request, reply) => {
    const { program, account } = await access(request, request.params.programId);
    return reply.status(201).send({ data: await createLink(deps(), program, objectBody(request.body), accountActor(account)) });
  });

  app.get<ProgramParams & { Querystring: Record<string, unknown> }>(`${base}/links`, async (request) => {
    const { program } = await access(request, request.params.programId);
    return { data: { links: await listProgramLinks(deps(), program, request.query.partner_id) } };
  });

  app.patch<{ Params: { programId: string; linkId: string }; Body: Body }>(`${base}/links/:linkId`, async (request) => {
    const { program, account } = await access(request, request.params.programId);
    const id = positiveId(request.params.linkId, 'linkIdInvalid');
    return { data: await setProgramLinkEnabled(deps(), program, { id }, objectBody(request.body), accountActor(account)) };
  });

  app.get<ProgramParams & { Querystring: Record<string, unknown> }>(`${base}/commissions.csv`, async (request, reply) => {
    const { program } = await access(request, request.params.programId);
    const { csv, fileName } = await commissionsCsv(deps(), program, request.query);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).send(csv);
  });

  app.post<ProgramParams & { Body: Body }>(`${base}/payouts`, async (request, reply) => {
    const { program, role, account } = await access(request, request.params.programId);
    return reply.status(201).send({ data: await recordPayout(deps(), program, role, accountActor(account), objectBody(request.body)) });
  });

  app.get<ProgramParams & { Querystring: Record<string, unknown> }>(`${base}/payouts`, async (request) => {
    const { program } = await access(request, request.params.programId);
    return { data: await payoutHistory(deps(), program, request.query) };
  });

  // One route for `{payoutId}` and `{payoutId}.csv`: the router takes the whole segment as the parameter.
  app.get<{ Params: { programId: string; payoutId: string } }>(`${base}/payouts/:payoutId`, async (request, reply) => {
    const { program } = await access(request, request.params.programId);
    const { payoutId } = request.params;
    if (!payoutId.endsWith('.csv')) return { data: await payoutDetail(deps(), program, payoutId) };
    const id = payoutId.slice(0, -'.csv'.length);
    const csv = await payoutCsv(deps(), program, id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="payout-${id}-program-${program.id}.csv"`)
      .send(csv);
  });

  type CommissionParams = { Params: { programId: string; commissionId: string } };
  app.post<CommissionParams>(`${base}/commissions/:commissionId/approve`, async (request) => {
    const { program, role, account } = await access(request, request.params.programId);
    const input = { program, role, by: accountActor(account), commissionId: request.params.commissionId };
    return { data: await approveCommission(deps(), input) };
  });

  app.post<CommissionParams & { Body: Body }>(`${base}/commissions/:commissionId/decline`, async (request) => {
    const { program, role, account } = await access(request, request.params.programId);
    const input = { program, role, by: accountActor(account), commissionId: request.params.commissionId };
    return { data: await declineCommission(deps(), { ...input, body: objectBody(request.body) }) };
  });
}
