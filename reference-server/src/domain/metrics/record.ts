import type { Currency } from '@svc/types';
import type { Kysely } from 'kysely';
import { addDailyAmounts, bumpDailyMetrics, bumpProgramMetrics } from '../../store/engine';
import type { Database } from '../../store/schema';

type Db = Kysely<Database>;

/**
 * Incremental metric updates, one per recorded event (spec/rules.md "What the service does", items 3 and 6): real events
 * count in the program totals and the daily rollups; test events only in the test counters.
 */
export async function countClick(db: Db, e: { programId: number; partnerId: number; isTest: boolean; now: number }): Promise<void> {
  if (e.isTest) return bumpProgramMetrics(db, e.programId, ['test_clicks'], [], e.now);
  await bumpProgramMetrics(db, e.programId, ['clicks'], ['last_click_at', 'last_event_at'], e.now);
  await bumpDailyMetrics(db, { programId: e.programId, day: utcDay(e.now), partnerId: e.partnerId }, 'clicks');
}

export async function countLead(db: Db, e: { programId: number; partnerId: number | null; isTest: boolean; now: number }): Promise<void> {
  if (e.isTest) return bumpProgramMetrics(db, e.programId, ['test_leads'], [], e.now);
  await bumpProgramMetrics(db, e.programId, ['leads'], ['last_lead_at', 'last_event_at'], e.now);
  await bumpDailyMetrics(db, { programId: e.programId, day: utcDay(e.now), partnerId: e.partnerId ?? 0 }, 'leads');
}

export interface SaleMetric {
  programId: number;
  partnerId: number | null;
  isTest: boolean;
  source: 'api' | 'processor';
  amountCents: number;
  currency: Currency;
  commissionCents: number;
  occurredAt: number;
  now: number;
}

export async function countSale(db: Db, e: SaleMetric): Promise<void> {
  if (e.isTest) return bumpProgramMetrics(db, e.programId, ['test_sales'], [], e.now);
  const processor = e.source === 'processor';
  await bumpProgramMetrics(
    db,
    e.programId,
    processor ? ['sales', 'processor_sales'] : ['sales'],
    processor ? ['last_sale_at', 'last_processor_sale_at', 'last_event_at'] : ['last_sale_at', 'last_event_at'],
    e.now,
  );
  const day = utcDay(e.occurredAt);
  const partnerId = e.partnerId ?? 0;
  await bumpDailyMetrics(db, { programId: e.programId, day, partnerId }, 'sales');
  // Written out, not spread from the key above: a spread made V8 give every sale's object a hidden class of its own
  // (docs/performance-notes.md, "The hot path, seventh pass").
  await addDailyAmounts(
    db,
    { programId: e.programId, day, partnerId, currency: e.currency },
    { revenueCents: e.amountCents, commissionsCents: e.commissionCents },
  );
}

/** A refund takes the sale's revenue and its reversed commission back out, on the sale's day. */
export async function countRefund(
  db: Db,
  e: { programId: number; partnerId: number | null; amountCents: number; currency: Currency; commissionCents: number; occurredAt: number },
): Promise<void> {
  await addDailyAmounts(
    db,
    { programId: e.programId, day: utcDay(e.occurredAt), partnerId: e.partnerId ?? 0, currency: e.currency },
    { revenueCents: -e.amountCents, commissionsCents: -e.commissionCents },
  );
}

const DAY_MS = 86_400_000;

/** The last day formatted, by its first millisecond: nearly every event of a moment falls on the same day. */
let last = { start: NaN, day: '' };

/** The UTC calendar day (`YYYY-MM-DD`) of an epoch-ms time: the key of the daily rollups. */
export function utcDay(ms: number): string {
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  if (start !== last.start) last = { start, day: new Date(start).toISOString().slice(0, 10) };
  return last.day;
}
