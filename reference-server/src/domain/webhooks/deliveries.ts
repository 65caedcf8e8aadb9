import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryDetail } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Program, WebhookAttemptRow } from '../../store/schema';
import {
  attemptsOf,
  deliveryPage,
  findDelivery,
  findDeliveryOfEndpoint,
  findWebhookEndpointInProgram,
  insertResend,
} from '../../store/webhooks';
import type { DomainContext } from '../context';
import { idCursor } from '../paging/id-cursor';
import { deliveryView } from './view';

const cursor = idCursor('d', 'webhookDeliveryCursorInvalid');

const maxLimit = 100;
const defaultLimit = 20;

/**
 * A page of an endpoint's deliveries, newest first, each with the body it sends and its attempts
 * (spec/openapi.yaml, `dashboardListWebhookDeliveries`). Parameters are checked before the endpoint is looked up.
 */
export async function webhookDeliveriesPage(
  deps: Pick<DomainContext, 'db'>,
  program: Program,
  endpointId: number,
  query: Record<string, unknown>,
): Promise<{ data: WebhookDeliveryDetail[]; next_cursor: string | null }> {
  const limit =
    query.limit === undefined ? defaultLimit : typeof query.limit === 'string' && /^\d{1,3}$/.test(query.limit) ? Number(query.limit) : NaN;
  if (!(limit >= 1 && limit <= maxLimit)) throw fail('webhookDeliveryLimitInvalid');
  const beforeId = query.cursor === undefined ? undefined : cursor.id(query.cursor);
  if (!(await findWebhookEndpointInProgram(deps.db, program.id, endpointId))) throw fail('webhookEndpointNotFound');
  // One row more than the page tells whether another page follows.
  const rows = await deliveryPage(deps.db, { endpointId, limit: limit + 1, ...(beforeId === undefined ? {} : { beforeId }) });
  const page = rows.slice(0, limit);
  const attempts = new Map<number, WebhookAttemptRow[]>();
  for (const a of await attemptsOf(
    deps.db,
    page.map((r) => r.id),
  ))
    attempts.set(a.delivery_id, [...(attempts.get(a.delivery_id) ?? []), a]);
  return {
    data: page.map((row) => ({
      ...deliveryView(row),
      request_body: row.payload,
      attempt_history: (attempts.get(row.id) ?? []).map(attemptView),
    })),
    next_cursor: rows.length > limit ? cursor.of(page[page.length - 1]!.id) : null,
  };
}

/**
 * Queues the delivery's event again for the same endpoint as a new delivery, due now, with the same `webhook-id`
 * and body (spec/openapi.yaml, `dashboardResendWebhookDelivery`); the delivery it copies keeps its history.
 */
export async function resendWebhookDelivery(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  endpointId: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  if (!(await findWebhookEndpointInProgram(deps.db, program.id, endpointId))) throw fail('webhookEndpointNotFound');
  const original = await findDeliveryOfEndpoint(deps.db, endpointId, deliveryId);
  if (!original) throw fail('webhookDeliveryNotFound');
  const id = await insertResend(deps.db, {
    eventId: original.event_id,
    endpointId,
    programId: program.id,
    eventType: original.event_type,
    maxAttempts: original.max_attempts,
    now: deps.clock.now(),
  });
  const row = await findDelivery(deps.db, id);
  if (!row) throw new Error(`resent delivery ${id} missing after it was queued`);
  return deliveryView(row);
}

/** The `{deliveryId}` of a path: a positive integer. */
export function deliveryId(value: unknown): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(id) || (id as number) < 1) throw fail('webhookDeliveryIdInvalid');
  return id as number;
}

function attemptView(row: WebhookAttemptRow): WebhookAttempt {
  return {
    attempt: row.attempt,
    at: new Date(row.at).toISOString(),
    duration_ms: row.duration_ms,
    response_status: row.response_status,
    response_body_excerpt: row.response_excerpt,
    error: row.error,
  };
}
