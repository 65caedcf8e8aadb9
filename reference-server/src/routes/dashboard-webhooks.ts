import type { FastifyInstance } from 'fastify';
import {
  createWebhookEndpoint,
  listWebhookEndpointSummaries,
  removeWebhookEndpoint,
  sendTestEvent,
  updateWebhookEndpoint,
} from '../domain/webhooks/endpoints';
import { endpointId } from '../domain/webhooks/fields';
import { deliveryId, resendWebhookDelivery, webhookDeliveriesPage } from '../domain/webhooks/deliveries';
import { accountActor } from '../domain/audit/actor';
import { dashboardContext } from './dashboard-auth';
import { objectBody } from '../json/fields';

type ProgramParams = { Params: { programId: string } };
type EndpointParams = { Params: { programId: string; endpointId: string } };
type DeliveryParams = { Params: { programId: string; endpointId: string; deliveryId: string } };
type Body = Record<string, unknown> | undefined;

/**
 * A program's outbound webhook endpoints (spec tag `outbound-webhooks`), behind a dashboard session and an active
 * membership on the program, like every /api/dashboard/programs/{programId} route. The delivery itself is the loop
 * of `outbound/dispatcher.ts`.
 */
export async function dashboardWebhookRoutes(app: FastifyInstance): Promise<void> {
  const { deps, access } = dashboardContext(app);
  const endpointContext = () => ({
    ...deps(),
    serverKey: app.svc.serverKey,
    allowPrivateAddresses: app.svc.webhooks.allowPrivateAddresses,
  });
  const base = '/api/dashboard/programs/:programId/webhook-endpoints';

  app.post<ProgramParams & { Body: Body }>(base, async (request, reply) => {
    const { account: viewer, program } = await access(request, request.params.programId);
    return reply
      .status(201)
      .send({ data: await createWebhookEndpoint(endpointContext(), program, objectBody(request.body), accountActor(viewer)) });
  });

  app.get<ProgramParams>(base, async (request) => {
    const { program } = await access(request, request.params.programId);
    return { data: await listWebhookEndpointSummaries(deps(), program) };
  });

  app.patch<EndpointParams & { Body: Body }>(`${base}/:endpointId`, async (request) => {
    const { account: viewer, program } = await access(request, request.params.programId);
    const id = endpointId(request.params.endpointId);
    return { data: await updateWebhookEndpoint(deps(), program, id, objectBody(request.body), accountActor(viewer)) };
  });

  app.delete<EndpointParams>(`${base}/:endpointId`, async (request, reply) => {
    const { account: viewer, program } = await access(request, request.params.programId);
    await removeWebhookEndpoint(deps(), program, endpointId(request.params.endpointId), accountActor(viewer));
    return reply.status(204).send();
  });

  app.post<EndpointParams>(`${base}/:endpointId/test`, async (request, reply) => {
    const { program } = await access(request, request.params.programId);
    const delivery = await sendTestEvent(deps(), program, endpointId(request.params.endpointId));
    app.svc.webhooks.dispatcher.wake();
    return reply.status(202).send({ data: delivery });
  });

  app.get<EndpointParams & { Querystring: Record<string, unknown> }>(`${base}/:endpointId/deliveries`, async (request) => {
    const { program } = await access(request, request.params.programId);
    return webhookDeliveriesPage(deps(), program, endpointId(request.params.endpointId), request.query);
  });

  app.post<DeliveryParams>(`${base}/:endpointId/deliveries/:deliveryId/resend`, async (request, reply) => {
    const { program } = await access(request, request.params.programId);
    const id = endpointId(request.params.endpointId);
    const delivery = await resendWebhookDelivery(deps(), program, id, deliveryId(request.params.deliveryId));
    app.svc.webhooks.dispatcher.wake();
    return reply.status(202).send({ data: delivery });
  });
}
