import type { components, WebhookDelivery, WebhookEndpoint, WebhookEndpointSummary } from '@svc/types';
import { fail } from '../../errors/service-error';
import { lockRow } from '../../store/row-lock';
import type { Program } from '../../store/schema';
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  findDelivery,
  findWebhookEndpointInProgram,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  recentDeliveries,
  setWebhookEndpointEnabled,
} from '../../store/webhooks';
import type { DomainDeps } from '../deps';
import { queueTestEvent } from './events';
import { endpointEnabled, endpointEvents, endpointUrl } from './fields';
import { newEndpointSecret, sealSecret } from './secret';
import { deliveryView, endpointView } from './view';

type Body = Record<string, unknown>;
export type WebhookEndpointCreated = components['schemas']['WebhookEndpointCreated'];

/** What the endpoint rules need beyond the store and the clock. */
export interface WebhookEndpointDeps extends Pick<DomainDeps, 'db' | 'clock'> {
  /** The server secret the signing secrets are sealed with (`domain/login/server-key.ts`). */
  serverKey: () => Promise<string>;
  /** Test control or `SVC_WEBHOOKS_ALLOW_PRIVATE=1`: the address guard is off. */
  allowPrivateAddresses: boolean;
}

/** spec/openapi.yaml, `dashboardCreateWebhookEndpoint`. */
export const maxEndpointsPerProgram = 10;
/** spec/openapi.yaml, `dashboardListWebhookEndpoints`. */
export const recentDeliveriesShown = 10;

/** Adds an endpoint; the answer is the only one that holds its secret in full. */
export async function createWebhookEndpoint(deps: WebhookEndpointDeps, program: Program, body: Body): Promise<WebhookEndpointCreated> {
  const url = endpointUrl(body.url, deps);
  const events = endpointEvents(body.events);
  const secret = newEndpointSecret();
  const secretSealed = sealSecret(secret, await deps.serverKey());
  // Count and insert in one transaction, the program locked: simultaneous creations never pass the cap together.
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'programs', program.id);
    if ((await countWebhookEndpoints(trx, program.id)) >= maxEndpointsPerProgram) throw fail('webhookEndpointLimit');
    return insertWebhookEndpoint(trx, {
      programId: program.id,
      url,
      events,
      secretSealed,
      secretLast4: secret.slice(-4),
      now: deps.clock.now(),
    });
  });
  const { secret_hint: _hint, ...view } = endpointView(row);
  return { ...view, secret };
}

/** Every endpoint of the program, oldest first, each with its newest deliveries. */
export async function listWebhookEndpointSummaries(deps: Pick<DomainDeps, 'db'>, program: Program): Promise<WebhookEndpointSummary[]> {
  const endpoints = await listWebhookEndpoints(deps.db, program.id);
  return Promise.all(
    endpoints.map(async (row) => ({
      ...endpointView(row),
      recent_deliveries: (await recentDeliveries(deps.db, row.id, recentDeliveriesShown)).map(deliveryView),
    })),
  );
}

/** Pauses or resumes an endpoint; the body is checked before the endpoint is looked up. */
export async function updateWebhookEndpoint(
  deps: Pick<DomainDeps, 'db'>,
  program: Program,
  id: number,
  body: Body,
): Promise<WebhookEndpoint> {
  const enabled = endpointEnabled(body.enabled);
  if (!(await findWebhookEndpointInProgram(deps.db, program.id, id))) throw fail('webhookEndpointNotFound');
  return endpointView(await setWebhookEndpointEnabled(deps.db, id, enabled));
}

export async function removeWebhookEndpoint(deps: Pick<DomainDeps, 'db'>, program: Program, id: number): Promise<void> {
  if (!(await deleteWebhookEndpoint(deps.db, program.id, id))) throw fail('webhookEndpointNotFound');
}

/** Queues a `webhook.test` event for the endpoint and answers its delivery (pending). */
export async function sendTestEvent(deps: Pick<DomainDeps, 'db' | 'clock'>, program: Program, id: number): Promise<WebhookDelivery> {
  const endpoint = await findWebhookEndpointInProgram(deps.db, program.id, id);
  if (!endpoint) throw fail('webhookEndpointNotFound');
  const deliveryId = await deps.db.transaction().execute((trx) => queueTestEvent(trx, { programId: program.id, id }, deps.clock.now()));
  const delivery = await findDelivery(deps.db, deliveryId);
  if (!delivery) throw new Error(`test delivery ${deliveryId} missing after it was queued`);
  return deliveryView(delivery);
}
