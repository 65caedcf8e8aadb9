import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Dialect } from '../../store/db';
import type { Database } from '../../store/schema';
import { claimDueDeliveries, pruneDeliveries, recordAttempt, releaseDelivery, type ClaimedDelivery } from '../../store/webhooks';
import { afterFailure } from './schedule';
import { openSecret } from './secret';
import { signatureHeaders } from './signature';

/** One HTTP attempt, as the transport sees it. */
export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborted when the server stops: the attempt is then given back, not counted. */
  signal: AbortSignal;
}

/**
 * A 2xx answer delivers; anything else says why it did not (`status` when an answer came). `excerpt`: the start of
 * the answer's body, when it had one.
 */
export type AttemptResult =
  { delivered: true; status: number; excerpt?: string } | { delivered: false; status: number | null; error: string; excerpt?: string };

/** Sends one attempt (`outbound/http-sender.ts`: 10-second timeout, no redirects, the address guard). */
export type WebhookSender = (request: AttemptRequest) => Promise<AttemptResult>;

export interface DeliveryContext {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The server's clock: the retry schedule and the times the dashboard shows (the test-control clock moves it). */
  clock: Clock;
  /** The wall clock: `webhook-timestamp` (receivers compare it with theirs) and the claim leases. */
  realClock: Clock;
  serverKey: () => Promise<string>;
  send: WebhookSender;
  /**
   * How long a claim holds a delivery (real time, `webhookLeaseMs`): longer than an attempt can take
   * (outbound/index.ts keeps each attempt within a third of it), so only a crash outlives it.
   */
  leaseMs: number;
}

/** The default lease: a crashed server's claimed deliveries go out again this long after it claimed them. */
export const defaultLeaseMs = 30_000;
/** Finished deliveries are kept this long (server clock), then pruned with their events. */
export const retentionMs = 30 * 86_400_000;

/** Claims up to `limit` due deliveries for this process (spec/openapi.yaml, tag `outbound-webhooks`, "Delivery"). */
export function claimDue(deps: DeliveryContext, limit: number): Promise<ClaimedDelivery[]> {
  const realNow = deps.realClock.now();
  return claimDueDeliveries(deps.db, deps.dialect, {
    now: deps.clock.now(),
    realNow,
    lockedUntil: realNow + deps.leaseMs,
    leaseToken: randomBytes(12).toString('base64url'),
    limit,
  });
}

export const unreadableSecretError = 'the signing secret cannot be read (the server secret changed): create the endpoint again';

/**
 * Makes one attempt of a claimed delivery and records it: delivered on a 2xx, else the next attempt on the retry
 * schedule, or failed after the last one. The body is the outbox's bytes; the signature is made now, with the real
 * time. Stopped midway (`signal`), the delivery is given back uncounted.
 */
export async function attemptDelivery(
  deps: DeliveryContext,
  delivery: ClaimedDelivery,
  signal: AbortSignal,
): Promise<AttemptResult | undefined> {
  const lease = { id: delivery.id, leaseToken: delivery.lease_token };
  if (signal.aborted) {
    await releaseDelivery(deps.db, lease);
    return undefined;
  }
  const secret = openSecret(delivery.secret_sealed, await deps.serverKey());
  const started = deps.realClock.now();
  let result: AttemptResult;
  if (secret === undefined) {
    result = { delivered: false, status: null, error: unreadableSecretError };
  } else {
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      ...signatureHeaders(delivery.message_id, Math.floor(deps.realClock.now() / 1000), delivery.payload, secret),
    };
    result = await deps.send({ url: delivery.url, headers, body: delivery.payload, signal });
  }
  const durationMs = Math.max(0, deps.realClock.now() - started);
  if (signal.aborted) {
    await releaseDelivery(deps.db, lease);
    return undefined;
  }
  const attempts = delivery.attempts + 1;
  const at = deps.clock.now();
  const answer = { at, durationMs, responseStatus: result.status, excerpt: result.excerpt ?? null };
  if (result.delivered) {
    await recordAttempt(deps.db, lease, { ...answer, status: 'delivered', attempts, nextAttemptAt: null, error: null });
  } else {
    const next = afterFailure(attempts, delivery.max_attempts, at);
    await recordAttempt(deps.db, lease, { ...answer, ...next, attempts, error: result.error });
  }
  return result;
}

/** Removes deliveries finished more than `retentionMs` ago (server clock) and their events. */
export function pruneFinished(deps: Pick<DeliveryContext, 'db' | 'clock'>): Promise<void> {
  return pruneDeliveries(deps.db, deps.clock.now() - retentionMs);
}
