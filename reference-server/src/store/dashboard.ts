import type { Kysely, Selectable } from 'kysely';
import type { Database, EventsTable } from './schema';

type Db = Kysely<Database>;
export type EventRow = Selectable<EventsTable>;

/** A program's test events at or after `since`, newest first (check-test-events). */
export function testEventsSince(db: Db, query: { programId: number; limit: number; since: number }): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('program_id', '=', query.programId)
    .where('is_test', '=', 1)
    .where('occurred_at', '>=', query.since)
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}

/** A row of the events feed: the event, its partner's name, and for a sale whether (and why) it was refunded. */
export type FeedRow = EventRow & { partner_name: string | null; refunded_at: number | null; refund_reason: string | null };

/**
 * A page of the events feed, newest first: older than `beforeId`, newer than `afterId`, of one type (`refund`: the
 * sales since refunded) or partner, when given.
 */
export function eventFeed(
  db: Db,
  query: {
    programId: number;
    limit: number;
    includeTest: boolean;
    afterId?: number;
    beforeId?: number;
    type?: EventRow['type'] | 'refund';
    partnerId?: number;
  },
): Promise<FeedRow[]> {
  let q = db
    .selectFrom('events')
    .leftJoin('partners', 'partners.id', 'events.partner_id')
    .leftJoin('sales', 'sales.id', 'events.sale_id')
    .selectAll('events')
    .select(['partners.name as partner_name', 'sales.refunded_at', 'sales.refund_reason'])
    .where('events.program_id', '=', query.programId);
  if (query.afterId !== undefined) q = q.where('events.id', '>', query.afterId);
  if (query.beforeId !== undefined) q = q.where('events.id', '<', query.beforeId);
  if (!query.includeTest) q = q.where('events.is_test', '=', 0);
  if (query.partnerId !== undefined) q = q.where('events.partner_id', '=', query.partnerId);
  if (query.type === 'refund') q = q.where('events.type', '=', 'sale').where('sales.refunded_at', 'is not', null);
  else if (query.type !== undefined) q = q.where('events.type', '=', query.type);
  return q.orderBy('events.id', 'desc').limit(query.limit).execute();
}

/** Daily counters summed over partners, for days in [fromDay, toDay] (the rollups hold one row per day and partner). */
export function countsByDay(db: Db, programId: number, fromDay: string, toDay: string) {
  return db
    .selectFrom('daily_metrics')
    .select((eb) => [
      'day',
      eb.fn.sum<number>('clicks').as('clicks'),
      eb.fn.sum<number>('leads').as('leads'),
      eb.fn.sum<number>('sales').as('sales'),
    ])
    .where('program_id', '=', programId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy('day')
    .execute();
}

export function amountsByDay(db: Db, programId: number, fromDay: string, toDay: string) {
  return db
    .selectFrom('daily_amounts')
    .select((eb) => [
      'day',
      'currency',
      eb.fn.sum<number>('revenue_cents').as('revenue_cents'),
      eb.fn.sum<number>('commissions_cents').as('commissions_cents'),
    ])
    .where('program_id', '=', programId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy(['day', 'currency'])
    .execute();
}

/** Counters by attributed partner for days in [fromDay, toDay] (partner 0, unattributed, is left out), with the partner's name. */
export function countsByPartner(db: Db, programId: number, fromDay: string, toDay: string) {
  return db
    .selectFrom('daily_metrics')
    .innerJoin('partners', 'partners.id', 'daily_metrics.partner_id')
    .select((eb) => [
      'daily_metrics.partner_id',
      'partners.name',
      eb.fn.sum<number>('daily_metrics.clicks').as('clicks'),
      eb.fn.sum<number>('daily_metrics.leads').as('leads'),
      eb.fn.sum<number>('daily_metrics.sales').as('sales'),
    ])
    .where('daily_metrics.program_id', '=', programId)
    .where('daily_metrics.day', '>=', fromDay)
    .where('daily_metrics.day', '<=', toDay)
    .groupBy(['daily_metrics.partner_id', 'partners.name'])
    .execute();
}

export function amountsByPartner(db: Db, programId: number, fromDay: string, toDay: string) {
  return db
    .selectFrom('daily_amounts')
    .select((eb) => [
      'partner_id',
      'currency',
      eb.fn.sum<number>('revenue_cents').as('revenue_cents'),
      eb.fn.sum<number>('commissions_cents').as('commissions_cents'),
    ])
    .where('program_id', '=', programId)
    .where('partner_id', '!=', 0)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy(['partner_id', 'currency'])
    .execute();
}

/**
 * The customers whose first click was in [fromMs, toMs), by partner: how many became confirmed leads, and how many of
 * those have a real sale not refunded. A click makes at most one customer (`customers_click` is unique), so these
 * count clicks of the period, once each, whatever the customer did more often (the conversion rates'
 * definition in spec/openapi.yaml, `ConversionRates`).
 */
export function clickCohortByPartner(db: Db, programId: number, fromMs: number, toMs: number) {
  return db
    .selectFrom('customers as c')
    .select((eb) => [
      'c.partner_id',
      eb.fn.countAll<number>().as('leads'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              eb.exists(
                eb
                  .selectFrom('sales as s')
                  .select('s.id')
                  .whereRef('s.customer_id', '=', 'c.id')
                  .where('s.is_test', '=', 0)
                  .where('s.refunded', '=', 0),
              ),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('buyers'),
    ])
    .where('c.program_id', '=', programId)
    .where('c.is_test', '=', 0)
    .where('c.click_id', 'is not', null)
    .where('c.clicked_at', '>=', fromMs)
    .where('c.clicked_at', '<', toMs)
    .where('c.status', 'in', ['lead', 'converted'])
    .groupBy('c.partner_id')
    .execute();
}
