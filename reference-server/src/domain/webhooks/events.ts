import type {
  CommissionCreatedEvent,
  CommissionUpdatedEvent,
  LeadCreatedEvent,
  PayoutCreatedEvent,
  RiskFlaggedEvent,
  SaleCreatedEvent,
  SaleRefundedEvent,
  WebhookEventType,
  WebhookTestEvent,
} from '@svc/types';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema';
import { inTransaction, storeOfBatch, cachedLookup } from '../../store/engine';
import { enabledWebhookEndpoints, insertWebhookEvent } from '../../store/webhooks';
import { maxAttempts, testEventAttempts } from './schedule';
import { newMessageId } from './signature';

/** The `data` of each event the service sends (the top-level `webhooks` of spec/openapi.yaml). */
export interface WebhookEventData {
  'lead.created': LeadCreatedEvent['data'];
  'sale.created': SaleCreatedEvent['data'];
  'commission.created': CommissionCreatedEvent['data'];
  'commission.updated': CommissionUpdatedEvent['data'];
  'sale.refunded': SaleRefundedEvent['data'];
  'payout.created': PayoutCreatedEvent['data'];
  'risk.flagged': RiskFlaggedEvent['data'];
}

type Data<T extends WebhookEventType> = WebhookEventData[T];

/**
 * Puts an event in the outbox, in the caller's transaction (`db` is the transaction of the record the event
 * describes): it commits with the record or not at all (spec/openapi.yaml, tag `outbound-webhooks`, "Delivery").
 * One delivery per enabled endpoint of the program subscribed to the type; none subscribed, nothing is written and
 * `data` (a function, when it needs a read or costs work on the hot path) is never built.
 */
export async function queueWebhookEvent<T extends WebhookEventType>(
  db: Kysely<Database>,
  event: { programId: number; type: T; at: number; data: Data<T> | (() => Data<T> | Promise<Data<T>>) },
): Promise<void> {
  const endpoints = (await endpointsIn(db, event.programId)).filter((e) => receives(e.events, event.type));
  if (endpoints.length === 0) return;
  const data = typeof event.data === 'function' ? await event.data() : event.data;
  await insertWebhookEvent(
    db,
    { programId: event.programId, messageId: newMessageId(), type: event.type, payload: body(event.type, event.at, data), now: event.at },
    endpoints.map((e) => ({ endpointId: e.id, maxAttempts })),
  );
}

type Endpoints = ReturnType<typeof enabledWebhookEndpoints>;
const readsByTransaction = new WeakMap<Kysely<Database>, Map<number, Endpoints>>();

/**
 * The program's enabled endpoints. In a group-commit batch (every tracking request) from the store's lookup cache
 * (store/engine/lookup-cache.ts: emptied by any write to webhook_endpoints, and on PostgreSQL by other servers' writes
 * within its bound): a read in the batch would also write the rows it holds so far (store/engine/deferred-inserts.ts).
 * In another transaction, read once per transaction (a transaction is short-lived, so is the memo; a refund queues
 * one event, a batch of test sends several). Outside a transaction nothing bounds a memo's life: read every time.
 * A failed read is not kept.
 */
function endpointsIn(db: Kysely<Database>, programId: number): Endpoints {
  const store = storeOfBatch(db);
  if (store) return cachedLookup(store, `endpoints:${programId}`, () => enabledWebhookEndpoints(db, programId)) as Endpoints;
  if (!inTransaction(db)) return enabledWebhookEndpoints(db, programId);
  let reads = readsByTransaction.get(db);
  if (!reads) {
    reads = new Map<number, Endpoints>();
    readsByTransaction.set(db, reads);
  }
  let read = reads.get(programId);
  if (!read) {
    read = enabledWebhookEndpoints(db, programId);
    reads.set(programId, read);
    read.catch(() => reads.delete(programId));
  }
  return read;
}

/** The `webhook.test` event of a test-send: to this endpoint only, attempted once. Answers the delivery's id. */
export async function queueTestEvent(db: Kysely<Database>, endpoint: { programId: number; id: number }, at: number): Promise<number> {
  const data: WebhookTestEvent['data'] = { program_id: endpoint.programId, endpoint_id: endpoint.id, is_test: true };
  const [deliveryId] = await insertWebhookEvent(
    db,
    { programId: endpoint.programId, messageId: newMessageId(), type: 'webhook.test', payload: body('webhook.test', at, data), now: at },
    [{ endpointId: endpoint.id, maxAttempts: testEventAttempts }],
  );
  return deliveryId!;
}

function receives(events: string, type: string): boolean {
  const list: unknown = JSON.parse(events);
  return Array.isArray(list) && list.includes(type);
}

/** `{type, timestamp, data}`, serialised once: every attempt sends these bytes. */
function body(type: string, at: number, data: object): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}
