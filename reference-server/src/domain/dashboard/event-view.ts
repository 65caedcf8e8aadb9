import type { components } from '@svc/types';
import { recentEvents, type EventRow } from '../../store/dashboard';

type TrackingEvent = components['schemas']['TrackingEvent'];

/** An event row as the dashboard shows it (`TrackingEvent`); sale-only members appear on sales only. */
export function eventView(row: EventRow): TrackingEvent {
  return {
    id: row.id,
    type: row.type,
    occurred_at: new Date(row.occurred_at).toISOString(),
    is_test: row.is_test === 1,
    partner_id: row.partner_id,
    click_id: row.click_id,
    customer_key: row.customer_key,
    ...(row.type === 'lead' ? { provisional: row.provisional === 1 } : {}),
    ...(row.sale_id === null ? {} : { sale_id: row.sale_id }),
    ...(row.amount_cents === null ? {} : { amount_cents: row.amount_cents }),
    ...(row.currency === null ? {} : { currency: row.currency }),
    ...(row.source === null ? {} : { source: row.source }),
  };
}

/** The program's latest events for the dashboard's live list (`GET /api/tracking/events/{programId}`). */
export async function latestEvents(
  db: Parameters<typeof recentEvents>[0],
  query: { programId: number; limit: number; includeTest: boolean; afterId?: number },
): Promise<TrackingEvent[]> {
  return (await recentEvents(db, query)).map(eventView);
}
