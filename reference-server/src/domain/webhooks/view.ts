import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@svc/types';
import type { WebhookEndpointRow } from '../../store/schema';
import type { DeliveryListRow } from '../../store/webhooks';
import { secretHint } from './secret';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** An endpoint on the wire, without its secret (`WebhookEndpoint`). */
export function endpointView(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    enabled: row.enabled === 1,
    created_at: iso(row.created_at),
    secret_hint: secretHint(row.secret_last4),
  };
}

export function deliveryView(row: DeliveryListRow): WebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.message_id,
    event_type: row.event_type as WebhookDelivery['event_type'],
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: isoOrNull(row.next_attempt_at),
    last_attempt_at: isoOrNull(row.last_attempt_at),
    last_response_status: row.last_response_status,
    last_error: row.last_error,
    created_at: iso(row.created_at),
  };
}
