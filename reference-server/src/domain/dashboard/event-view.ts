import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { eventFeed, type EventRow, type FeedRow } from '../../store/dashboard';
import { booleanParam, integerParam } from './params';
import { idCursor } from '../paging/id-cursor';

const cursor = idCursor('e', 'dashboardEventCursorInvalid');

type TrackingEvent = components['schemas']['TrackingEvent'];
type FeedType = EventRow['type'] | 'refund';
const feedTypes: readonly FeedType[] = ['click', 'lead', 'sale', 'refund'];

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

/** A feed row: the event with its partner's name, and on a sale its refund. */
function feedView(row: FeedRow): TrackingEvent {
  return {
    ...eventView(row),
    partner_name: row.partner_name,
    ...(row.type === 'sale'
      ? { refunded_at: row.refunded_at === null ? null : new Date(row.refunded_at).toISOString(), refund_reason: row.refund_reason }
      : {}),
  };
}

/**
 * A page of the program's events feed (`GET /api/tracking/events/{programId}`), newest first: `limit`, `after_id`
 * (the live feed's newer events), `include_test`, `type`, `partner_id` and `cursor` (older pages). Every parameter
 * is checked first.
 */
export async function eventsPage(
  db: Parameters<typeof eventFeed>[0],
  programId: number,
  q: Record<string, unknown>,
): Promise<{ events: TrackingEvent[]; next_cursor: string | null }> {
  const limit = integerParam(q.limit, { min: 1, max: 200, fallback: 50 }, () => fail('dashboardLimitInvalid')) as number;
  const afterId = integerParam(q.after_id, { min: 0, max: Number.MAX_SAFE_INTEGER }, () => fail('dashboardAfterIdInvalid'));
  const includeTest = booleanParam(q.include_test, true);
  if (q.type !== undefined && !feedTypes.includes(q.type as FeedType)) throw fail('dashboardEventTypeInvalid');
  const partnerId = integerParam(q.partner_id, { min: 1, max: Number.MAX_SAFE_INTEGER }, () => fail('partnerIdInvalid'));
  const beforeId = q.cursor === undefined ? undefined : cursor.id(q.cursor);
  // One row more than the page tells whether an older page follows.
  const rows = await eventFeed(db, {
    programId,
    limit: limit + 1,
    includeTest,
    ...(afterId === undefined ? {} : { afterId }),
    ...(beforeId === undefined ? {} : { beforeId }),
    ...(q.type === undefined ? {} : { type: q.type as FeedType }),
    ...(partnerId === undefined ? {} : { partnerId }),
  });
  const page = rows.slice(0, limit);
  return { events: page.map(feedView), next_cursor: rows.length > limit ? cursor.of(page[page.length - 1]!.id) : null };
}
