import type { components, WebhookDelivery, WebhookEndpoint, WebhookEndpointSummary } from '@svc/types';
import { fail } from '../../errors/service-error';
import { lockRow } from '../../store/row-lock';
import type { Kysely } from 'kysely';
import type { Database, Program } from '../../store/schema';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/record';
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
import type { DomainContext } from '../context';
import { queueTestEvent } from './events';
import { endpointEnabled, endpointEvents, endpointUrl } from './fields';
import { newEndpointSecret, sealSecret } from './secret';
import { deliveryView, endpointView } from './view';

type Body = Record<string, unknown>;
export type WebhookEndpointCreated = components['schemas']['WebhookEndpointCreated'];

/** What the endpoint rules need beyond the store and the clock. */
export interface WebhookEndpointContext extends Pick<DomainContext, 'db' | 'clock'> {
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
export async function createWebhookEndpoint(
  deps: WebhookEndpointContext,
  program: Program,
  body: Body,
  by: Actor,
): Promise<WebhookEndpointCreated> {
  const url = endpointUrl(body.url, deps);
  const events = endpointEvents(body.events);
  const secret = newEndpointSecret();
  const secretSealed = sealSecret(secret, await deps.serverKey());
  // Count and insert in one transaction, the program locked: simultaneous creations never pass the cap together.
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'programs', program.id);
    if ((await countWebhookEndpoints(trx, program.id)) >= maxEndpointsPerProgram) throw fail('webhookEndpointLimit');
    const now = deps.clock.now();
    const row = await insertWebhookEndpoint(trx, { programId: program.id, url, events, secretSealed, secretLast4: secret.slice(-4), now });
    // Never the secret, nor its last characters.
    await recordEndpointAudit(trx, { programId: program.id, actor: by, now }, 'webhook_endpoint.created', row.id, { url, events });
    return row;
  });
  const { secret_hint: _hint, ...view } = endpointView(row);
  return { ...view, secret };
}

/** Every endpoint of the program, oldest first, each with its newest deliveries. */
export async function listWebhookEndpointSummaries(deps: Pick<DomainContext, 'db'>, program: Program): Promise<WebhookEndpointSummary[]> {
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
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  id: number,
  body: Body,
  by: Actor,
): Promise<WebhookEndpoint> {
  const enabled = endpointEnabled(body.enabled);
  const row = await deps.db.transaction().execute(async (trx) => {
    // The program's row holds endpoint changes one at a time, so `before` is what this change replaces.
    await lockRow(trx, 'programs', program.id);
    const before = await findWebhookEndpointInProgram(trx, program.id, id);
    if (!before) throw fail('webhookEndpointNotFound');
    const after = await setWebhookEndpointEnabled(trx, id, enabled);
    if (before.enabled !== after.enabled) {
      const details = { url: after.url, enabled: { from: before.enabled === 1, to: after.enabled === 1 } };
      await recordEndpointAudit(trx, { programId: program.id, actor: by, now: deps.clock.now() }, 'webhook_endpoint.updated', id, details);
    }
    return after;
  });
  return endpointView(row);
}

export async function removeWebhookEndpoint(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  id: number,
  by: Actor,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const removed = await deleteWebhookEndpoint(trx, program.id, id);
    if (!removed) throw fail('webhookEndpointNotFound');
    const details = { url: removed.url, events: JSON.parse(removed.events) as unknown };
    await recordEndpointAudit(trx, { programId: program.id, actor: by, now: deps.clock.now() }, 'webhook_endpoint.deleted', id, details);
  });
}

function recordEndpointAudit(
  trx: Kysely<Database>,
  audit: { programId: number; actor: Actor; now: number },
  action: 'webhook_endpoint.created' | 'webhook_endpoint.updated' | 'webhook_endpoint.deleted',
  id: number,
  details: Record<string, unknown>,
): Promise<void> {
  return recordAudit(trx, { ...audit, action, target: `webhook_endpoint:${id}`, details });
}

/** Queues a `webhook.test` event for the endpoint and answers its delivery (pending). */
export async function sendTestEvent(deps: Pick<DomainContext, 'db' | 'clock'>, program: Program, id: number): Promise<WebhookDelivery> {
  const endpoint = await findWebhookEndpointInProgram(deps.db, program.id, id);
  if (!endpoint) throw fail('webhookEndpointNotFound');
  const deliveryId = await deps.db.transaction().execute((trx) => queueTestEvent(trx, { programId: program.id, id }, deps.clock.now()));
  const delivery = await findDelivery(deps.db, deliveryId);
  if (!delivery) throw new Error(`test delivery ${deliveryId} missing after it was queued`);
  return deliveryView(delivery);
}
