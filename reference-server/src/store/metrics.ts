import { type Kysely, sql } from 'kysely';
import type { Currency } from '@svc/types';
import { compiled, compiledFamily } from './compiled';
import type { Database } from './schema';

type Db = Kysely<Database>;

type Counter = 'clicks' | 'leads' | 'sales' | 'processor_sales' | 'test_clicks' | 'test_leads' | 'test_sales';
type LastAt = 'last_click_at' | 'last_lead_at' | 'last_sale_at' | 'last_processor_sale_at' | 'last_event_at';

const programBump = compiledFamily<{ programId: number; now: number }, unknown, { counters: Counter[]; lastAt: LastAt[] }>(
  (db, $, { counters, lastAt }) => {
    const values: Record<string, unknown> = { program_id: $('programId') };
    for (const c of counters) values[c] = 1;
    for (const l of lastAt) values[l] = $('now');
    return db
      .insertInto('program_metrics')
      .values(values as { program_id: number })
      .onConflict((oc) =>
        oc.column('program_id').doUpdateSet(() => {
          const set: Record<string, unknown> = {};
          for (const c of counters) set[c] = sql`${sql.ref(`program_metrics.${c}`)} + 1`;
          for (const l of lastAt) set[l] = $('now');
          return set;
        }),
      );
  },
);

/**
 * Adds one to program counters and sets "last seen" times, as one upsert (never a scan of the events):
 * §Resources, program metrics maintained incrementally.
 */
export async function bumpProgramMetrics(db: Db, programId: number, counters: Counter[], lastAt: LastAt[], now: number): Promise<void> {
  await programBump(db, `${counters.join()}|${lastAt.join()}`, { counters, lastAt }, { programId, now });
}

type DailyCounter = 'clicks' | 'leads' | 'sales';

const dailyBump = compiledFamily<{ programId: number; day: string; partnerId: number }, unknown, DailyCounter>((db, $, counter) =>
  db
    .insertInto('daily_metrics')
    .values({ program_id: $('programId'), day: $('day'), partner_id: $('partnerId'), [counter]: 1 })
    .onConflict((oc) =>
      oc.columns(['program_id', 'day', 'partner_id']).doUpdateSet({ [counter]: sql`${sql.ref(`daily_metrics.${counter}`)} + 1` }),
    ),
);

/** Daily rollup by partner (0 = unattributed): one more click, lead or sale on `day`. */
export async function bumpDailyMetrics(
  db: Db,
  key: { programId: number; day: string; partnerId: number },
  counter: DailyCounter,
): Promise<void> {
  await dailyBump(db, counter, counter, key);
}

const amounts = compiled<
  { programId: number; day: string; partnerId: number; currency: Currency; revenueCents: number; commissionsCents: number },
  unknown
>((db, $) =>
  db
    .insertInto('daily_amounts')
    .values({
      program_id: $('programId'),
      day: $('day'),
      partner_id: $('partnerId'),
      currency: $('currency'),
      revenue_cents: $('revenueCents'),
      commissions_cents: $('commissionsCents'),
    })
    .onConflict((oc) =>
      oc.columns(['program_id', 'day', 'partner_id', 'currency']).doUpdateSet({
        revenue_cents: sql`${sql.ref('daily_amounts.revenue_cents')} + ${$('revenueCents')}`,
        commissions_cents: sql`${sql.ref('daily_amounts.commissions_cents')} + ${$('commissionsCents')}`,
      }),
    ),
);

/** Adds (or, for a refund, subtracts) revenue and commission cents on `day` for a partner and currency. */
export async function addDailyAmounts(
  db: Db,
  key: { programId: number; day: string; partnerId: number; currency: Currency },
  change: { revenueCents: number; commissionsCents: number },
): Promise<void> {
  await amounts(db, { ...key, ...change });
}

export function readProgramMetrics(db: Db, programId: number) {
  return db.selectFrom('program_metrics').selectAll().where('program_id', '=', programId).executeTakeFirst();
}

/** Revenue and commission totals by currency, summed from the daily rollups (not from the sales). */
export function readAmountTotals(db: Db, programId: number) {
  return db
    .selectFrom('daily_amounts')
    .select((eb) => [
      'currency',
      eb.fn.sum<number>('revenue_cents').as('revenue_cents'),
      eb.fn.sum<number>('commissions_cents').as('commissions_cents'),
    ])
    .where('program_id', '=', programId)
    .groupBy('currency')
    .orderBy('currency')
    .execute();
}
