import type { Kysely } from 'kysely';
import type { Dialect } from './db';
import type { Database, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from './schema';

type Db = Kysely<Database>;

// ---------------------------------------------------------------- endpoints

export async function insertWebhookEndpoint(
  db: Db,
  values: { programId: number; url: string; events: readonly string[]; secretSealed: string; secretLast4: string; now: number },
): Promise<WebhookEndpointRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({
      program_id: values.programId,
      url: values.url,
      events: JSON.stringify(values.events),
      secret_sealed: values.secretSealed,
      secret_last4: values.secretLast4,
      created_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function listWebhookEndpoints(db: Db, programId: number): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('program_id', '=', programId).orderBy('id').execute();
}

export async function countWebhookEndpoints(db: Db, programId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('program_id', '=', programId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The endpoint only when it belongs to the program (another program's is "not found"). */
export function findWebhookEndpointInProgram(db: Db, programId: number, id: number): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('program_id', '=', programId).where('id', '=', id).executeTakeFirst();
}

export function setWebhookEndpointEnabled(db: Db, id: number, enabled: boolean): Promise<WebhookEndpointRow> {
  return db
    .updateTable('webhook_endpoints')
    .set({ enabled: enabled ? 1 : 0 })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Removes the endpoint and everything queued for it; `trx` is the removal's transaction. Answers the removed row,
 * undefined when it was not there.
 */
export async function deleteWebhookEndpoint(trx: Db, programId: number, id: number): Promise<WebhookEndpointRow | undefined> {
  const deleted = await trx
    .deleteFrom('webhook_endpoints')
    .where('program_id', '=', programId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (deleted) {
    await trx
      .deleteFrom('webhook_attempts')
      .where('delivery_id', 'in', trx.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id))
      .execute();
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  }
  return deleted;
}

/** The enabled endpoints of a program (the fan-out of a new event reads them inside the record's transaction). */
export function enabledWebhookEndpoints(db: Db, programId: number): Promise<Pick<WebhookEndpointRow, 'id' | 'events'>[]> {
  return db.selectFrom('webhook_endpoints').select(['id', 'events']).where('program_id', '=', programId).where('enabled', '=', 1).execute();
}

// ---------------------------------------------------------------- the outbox

/** One event and its deliveries (one per endpoint), in the caller's transaction. */
export async function insertWebhookEvent(
  db: Db,
  event: { programId: number; messageId: string; type: string; payload: string; now: number },
  deliveries: { endpointId: number; maxAttempts: number }[],
): Promise<number[]> {
  const row = await db
    .insertInto('webhook_events')
    .values({ program_id: event.programId, message_id: event.messageId, type: event.type, payload: event.payload, created_at: event.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (deliveries.length === 0) return [];
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((d) => ({
        event_id: row.id,
        endpoint_id: d.endpointId,
        program_id: event.programId,
        event_type: event.type,
        max_attempts: d.maxAttempts,
        next_attempt_at: event.now,
        created_at: event.now,
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((d) => d.id);
}

/** A delivery as the dashboard shows it, with its event's `webhook-id`. */
export type DeliveryListRow = Pick<
  WebhookDeliveryRow,
  | 'id'
  | 'endpoint_id'
  | 'event_type'
  | 'status'
  | 'attempts'
  | 'next_attempt_at'
  | 'last_attempt_at'
  | 'last_response_status'
  | 'last_error'
  | 'created_at'
> & { message_id: string };

function deliveryList(db: Db) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.endpoint_id',
      'webhook_deliveries.event_type',
      'webhook_deliveries.status',
      'webhook_deliveries.attempts',
      'webhook_deliveries.next_attempt_at',
      'webhook_deliveries.last_attempt_at',
      'webhook_deliveries.last_response_status',
      'webhook_deliveries.last_error',
      'webhook_deliveries.created_at',
      'webhook_events.message_id',
    ]);
}

/** An endpoint's newest deliveries (an index range: constant time whatever the endpoint's history). */
export function recentDeliveries(db: Db, endpointId: number, limit: number): Promise<DeliveryListRow[]> {
  return deliveryList(db)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(limit)
    .execute();
}

export function findDelivery(db: Db, id: number): Promise<DeliveryListRow | undefined> {
  return deliveryList(db).where('webhook_deliveries.id', '=', id).executeTakeFirst();
}

/** A page of an endpoint's deliveries, newest first, before `beforeId` when given, each with its event's body. */
export function deliveryPage(
  db: Db,
  query: { endpointId: number; limit: number; beforeId?: number },
): Promise<(DeliveryListRow & { payload: string })[]> {
  return deliveryList(db)
    .select('webhook_events.payload')
    .where('webhook_deliveries.endpoint_id', '=', query.endpointId)
    .$if(query.beforeId !== undefined, (q) => q.where('webhook_deliveries.id', '<', query.beforeId!))
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(query.limit)
    .execute();
}

/** The attempts of these deliveries, oldest first. */
export function attemptsOf(db: Db, deliveryIds: number[]): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('id')
    .execute();
}

/** The delivery only when it belongs to the endpoint (another endpoint's is "not found"), with its event's id. */
export function findDeliveryOfEndpoint(
  db: Db,
  endpointId: number,
  id: number,
): Promise<Pick<WebhookDeliveryRow, 'id' | 'event_id' | 'event_type' | 'max_attempts'> | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'event_type', 'max_attempts'])
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A new delivery of an event already in the outbox, due now: a resend (same `webhook-id`, same body). */
export async function insertResend(
  db: Db,
  values: { eventId: number; endpointId: number; programId: number; eventType: string; maxAttempts: number; now: number },
): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      event_id: values.eventId,
      endpoint_id: values.endpointId,
      program_id: values.programId,
      event_type: values.eventType,
      max_attempts: values.maxAttempts,
      next_attempt_at: values.now,
      created_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// ---------------------------------------------------------------- the delivery loop

/** What an attempt needs: the delivery, its event's id and body, and the endpoint's address and sealed secret. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  max_attempts: number;
  lease_token: string;
  message_id: string;
  payload: string;
  url: string;
  secret_sealed: string;
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints for this caller: sets a lease (`lease_token` until
 * `lockedUntil`, real time) in one statement, so no other claimer gets them while it lasts. On PostgreSQL rows
 * another instance is claiming are skipped (`FOR UPDATE SKIP LOCKED`) and re-checked after it commits; SQLite runs
 * one writer at a time. `now` is the server's clock (the schedule), `realNow` the wall clock (the leases).
 */
export async function claimDueDeliveries(
  db: Db,
  dialect: Dialect,
  claim: { now: number; realNow: number; lockedUntil: number; leaseToken: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', claim.now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', claim.realNow)]))
    .where('endpoint_id', 'in', (eb) => eb.selectFrom('webhook_endpoints').select('id').where('enabled', '=', 1))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(claim.limit)
    .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked());
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ lease_token: claim.leaseToken, locked_until: claim.lockedUntil })
    .where('id', 'in', due)
    .returning('id')
    .execute();
  if (claimed.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.attempts',
      'webhook_deliveries.max_attempts',
      'webhook_events.message_id',
      'webhook_events.payload',
      'webhook_endpoints.url',
      'webhook_endpoints.secret_sealed',
    ])
    .where(
      'webhook_deliveries.id',
      'in',
      claimed.map((c) => c.id),
    )
    .where('webhook_deliveries.lease_token', '=', claim.leaseToken)
    .orderBy('webhook_deliveries.id')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, lease_token: claim.leaseToken })));
}

/**
 * Records one attempt on the delivery and in its history (`webhook_attempts`), in one transaction, only under the
 * caller's lease (a lease taken over after it expired records nothing).
 */
export async function recordAttempt(
  db: Db,
  delivery: { id: number; leaseToken: string },
  outcome: {
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    nextAttemptAt: number | null;
    at: number;
    durationMs: number;
    responseStatus: number | null;
    excerpt: string | null;
    error: string | null;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        next_attempt_at: outcome.nextAttemptAt,
        last_attempt_at: outcome.at,
        last_response_status: outcome.responseStatus,
        last_error: outcome.error,
        lease_token: null,
        locked_until: null,
      })
      .where('id', '=', delivery.id)
      .where('lease_token', '=', delivery.leaseToken)
      .returning('id')
      .executeTakeFirst();
    if (!updated) return;
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: delivery.id,
        attempt: outcome.attempts,
        at: outcome.at,
        duration_ms: outcome.durationMs,
        response_status: outcome.responseStatus,
        response_excerpt: outcome.excerpt,
        error: outcome.error,
      })
      .execute();
  });
}

/** Gives a claimed delivery back untouched (the server is stopping): the next claimer attempts it at once. */
export async function releaseDelivery(db: Db, delivery: { id: number; leaseToken: string }): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_token: null, locked_until: null })
    .where('id', '=', delivery.id)
    .where('lease_token', '=', delivery.leaseToken)
    .execute();
}

/**
 * Deletes finished deliveries made before `before` (server clock), then the events no delivery refers to, in one
 * transaction: nobody sees a delivery gone and its event still there.
 */
export async function pruneDeliveries(db: Db, before: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const finished = (eb: Db) =>
      eb.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'pending').where('created_at', '<', before);
    await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', finished(trx)).execute();
    await trx.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('created_at', '<', before).execute();
    await trx
      .deleteFrom('webhook_events')
      .where('created_at', '<', before)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries')
              .select('webhook_deliveries.id')
              .whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'),
          ),
        ),
      )
      .execute();
  });
}

/** The key of the customer a refunded sale belongs to (its event carries it). */
export async function customerKeyOf(db: Db, customerId: number | null): Promise<string | null> {
  if (customerId === null) return null;
  const row = await db.selectFrom('customers').select('customer_key').where('id', '=', customerId).executeTakeFirst();
  return row?.customer_key ?? null;
}
