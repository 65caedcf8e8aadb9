import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { Currency } from '@svc/types';
import type { Db } from './batch';
import { compiled, compiledFamily } from './compiled';

type Counter = 'clicks' | 'leads' | 'sales' | 'processor_sales' | 'test_clicks' | 'test_leads' | 'test_sales';
type LastAt = 'last_click_at' | 'last_lead_at' | 'last_sale_at' | 'last_processor_sale_at' | 'last_event_at';

const programUpsert = compiledFamily<Record<string, number>, unknown, { counters: Counter[]; lastAt: LastAt[] }>(
  (db, $, { counters, lastAt }) => {
    const values: Record<string, unknown> = { program_id: $('program_id'), shard: $('shard') };
    for (const c of counters) values[c] = $(c);
    for (const l of lastAt) values[l] = $(l);
    return db
      .insertInto('program_metrics')
      .values(values as { program_id: number })
      .onConflict((oc) =>
        oc.columns(['program_id', 'shard']).doUpdateSet(() => {
          const set: Record<string, unknown> = {};
          for (const c of counters) set[c] = sql`${sql.ref(`program_metrics.${c}`)} + ${$(c)}`;
          for (const l of lastAt) set[l] = $(l);
          return set;
        }),
      );
  },
);

type DailyCounter = 'clicks' | 'leads' | 'sales';

/** The shard of counter rows written outside the group commit (a refund, the dashboard) and at a program's creation. */
export const UNBATCHED_SHARD = 0;

/** How many shards a PostgreSQL server picks its batches' shards among (`metricShards`). */
const SHARD_BLOCKS = 16;

/**
 * The counter rows each batch of a store's group commit writes (store/engine/group-commit.ts), one shard per batch
 * that may run at once (the `shard` column, store/migrations/0017_metric_shards.ts). Readers sum the rows of every
 * shard, so the counters are exact whoever wrote them. On PostgreSQL a batch holds its counter rows' locks until its
 * commit is flushed; a server's batches that run side by side, and most often two servers', write different rows, so
 * none waits for another's flush there. A server picks its block of shards at random among `SHARD_BLOCKS` (no
 * coordination between servers: two that pick the same block wait for each other as before, and count exactly all
 * the same); the rows of a program stay bounded by `1 + SHARD_BLOCKS × batches`. SQLite has one writer: shard 0.
 */
export function metricShards(dialect: 'sqlite' | 'postgres', batches: number): number[] {
  if (dialect === 'sqlite') return [UNBATCHED_SHARD];
  const block = randomInt(SHARD_BLOCKS);
  return Array.from({ length: batches }, (_, index) => 1 + block * batches + index);
}

const dailyUpsert = compiledFamily<{ programId: number; day: string; partnerId: number; shard: number; n: number }, unknown, DailyCounter>(
  (db, $, counter) =>
    db
      .insertInto('daily_metrics')
      .values({ program_id: $('programId'), day: $('day'), partner_id: $('partnerId'), shard: $('shard'), [counter]: $('n') })
      .onConflict((oc) =>
        oc
          .columns(['program_id', 'day', 'partner_id', 'shard'])
          .doUpdateSet({ [counter]: sql`${sql.ref(`daily_metrics.${counter}`)} + ${$('n')}` }),
      ),
);

const amountsUpsert = compiled<
  { programId: number; day: string; partnerId: number; currency: Currency; shard: number; revenueCents: number; commissionsCents: number },
  unknown
>((db, $) =>
  db
    .insertInto('daily_amounts')
    .values({
      program_id: $('programId'),
      day: $('day'),
      partner_id: $('partnerId'),
      currency: $('currency'),
      shard: $('shard'),
      revenue_cents: $('revenueCents'),
      commissions_cents: $('commissionsCents'),
    })
    .onConflict((oc) =>
      oc.columns(['program_id', 'day', 'partner_id', 'currency', 'shard']).doUpdateSet({
        revenue_cents: sql`${sql.ref('daily_amounts.revenue_cents')} + ${$('revenueCents')}`,
        commissions_cents: sql`${sql.ref('daily_amounts.commissions_cents')} + ${$('commissionsCents')}`,
      }),
    ),
);

interface DailyKey {
  programId: number;
  day: string;
  partnerId: number;
}

/**
 * Metric changes held back to the end of a group-commit batch (store/engine/group-commit.ts) and written there, summed, in
 * the batch's own transaction before its COMMIT: one upsert per program, day and partner instead of two to four per
 * request. Counters add and "last seen" times keep the last value in batch order, so the rows end exactly as if each
 * request had written its own (spec/rules.md "Resources", program metrics maintained incrementally). A request that fails rolls
 * back its own changes with its savepoint: its deltas are dropped, never merged.
 */
export class MetricDeltas {
  private readonly programs = new Map<number, Record<string, number>>();
  private readonly daily = new Map<string, { key: DailyKey; counter: DailyCounter; n: number }>();
  private readonly amounts = new Map<string, { key: DailyKey & { currency: Currency }; revenueCents: number; commissionsCents: number }>();

  program(programId: number, counters: readonly Counter[], lastAt: readonly LastAt[], now: number): void {
    const row = this.programs.get(programId) ?? {};
    for (const c of counters) row[c] = (row[c] ?? 0) + 1;
    for (const l of lastAt) row[l] = now;
    this.programs.set(programId, row);
  }

  day(key: DailyKey, counter: DailyCounter, n = 1): void {
    const id = `${key.programId}|${key.day}|${key.partnerId}|${counter}`;
    const entry = this.daily.get(id);
    if (entry) entry.n += n;
    else this.daily.set(id, { key, counter, n });
  }

  money(key: DailyKey & { currency: Currency }, change: { revenueCents: number; commissionsCents: number }): void {
    const id = `${key.programId}|${key.day}|${key.partnerId}|${key.currency}`;
    const entry = this.amounts.get(id);
    if (entry) {
      entry.revenueCents += change.revenueCents;
      entry.commissionsCents += change.commissionsCents;
    } else this.amounts.set(id, { key, ...change });
  }

  /** Adds another set of changes (a request's, once it succeeded) to these. */
  merge(other: MetricDeltas): void {
    for (const [programId, row] of other.programs) {
      const mine = this.programs.get(programId) ?? {};
      for (const [column, value] of Object.entries(row)) mine[column] = column.startsWith('last_') ? value : (mine[column] ?? 0) + value;
      this.programs.set(programId, mine);
    }
    for (const { key, counter, n } of other.daily.values()) this.day(key, counter, n);
    for (const { key, revenueCents, commissionsCents } of other.amounts.values()) this.money(key, { revenueCents, commissionsCents });
  }

  /**
   * Writes the sums into the rows of `shard` (`metricShards`), rows in one fixed order (program, then day and
   * partner, then currency, each sorted), so that two writers of the same rows on PostgreSQL always lock them in the
   * same order.
   */
  async write(db: Db, shard: number): Promise<void> {
    for (const [programId, row] of [...this.programs].sort((a, b) => a[0] - b[0])) {
      const columns = Object.keys(row);
      const counters = columns.filter((c): c is Counter => !c.startsWith('last_'));
      const lastAt = columns.filter((c): c is LastAt => c.startsWith('last_'));
      await programUpsert(db, columns.join(), { counters, lastAt }, { ...row, program_id: programId, shard });
    }
    for (const [, { key, counter, n }] of sorted(this.daily)) await dailyUpsert(db, counter, counter, { ...key, shard, n });
    for (const [, { key, revenueCents, commissionsCents }] of sorted(this.amounts))
      await amountsUpsert(db, { ...key, shard, revenueCents, commissionsCents });
  }
}

const sorted = <V>(map: Map<string, V>) => [...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/** Runs `record` on the request's deltas inside a batch; outside one, on deltas written at once. */
async function change(db: Db, record: (deltas: MetricDeltas) => void): Promise<void> {
  const deltas = db.batch?.metrics;
  if (deltas) return record(deltas);
  const now = new MetricDeltas();
  record(now);
  // Outside the group commit (a refund, the dashboard): rare, so the shard no batch writes (`metricShards`).
  await now.write(db, UNBATCHED_SHARD);
}

/**
 * Adds one to program counters and sets "last seen" times, as one upsert (never a scan of the events):
 * spec/rules.md "Resources", program metrics maintained incrementally.
 */
export function bumpProgramMetrics(db: Db, programId: number, counters: Counter[], lastAt: LastAt[], now: number): Promise<void> {
  return change(db, (deltas) => deltas.program(programId, counters, lastAt, now));
}

/** Daily rollup by partner (0 = unattributed): one more click, lead or sale on `day`. */
export function bumpDailyMetrics(db: Db, key: DailyKey, counter: DailyCounter): Promise<void> {
  return change(db, (deltas) => deltas.day(key, counter));
}

/** Adds (or, for a refund, subtracts) revenue and commission cents on `day` for a partner and currency. */
export function addDailyAmounts(
  db: Db,
  key: DailyKey & { currency: Currency },
  amounts: { revenueCents: number; commissionsCents: number },
): Promise<void> {
  return change(db, (deltas) => deltas.money(key, amounts));
}

const COUNTERS: readonly Counter[] = ['clicks', 'leads', 'sales', 'processor_sales', 'test_clicks', 'test_leads', 'test_sales'];
const LAST_AT: readonly LastAt[] = ['last_click_at', 'last_lead_at', 'last_sale_at', 'last_processor_sale_at', 'last_event_at'];

/** A program's counters: the sums of its rows (one per shard), and each "last seen" time the latest of them. */
export async function readProgramMetrics(db: Db, programId: number): Promise<Record<Counter, number> & Record<LastAt, number | null>> {
  const row = await db
    .selectFrom('program_metrics')
    .select([
      ...COUNTERS.map((c) => sql<number | string | null>`sum(${sql.ref(c)})`.as(c)),
      ...LAST_AT.map((l) => sql<number | string | null>`max(${sql.ref(l)})`.as(l)),
    ])
    .where('program_id', '=', programId)
    .executeTakeFirstOrThrow();
  // PostgreSQL's sum of a bigint is a numeric, which pg reads as a string; every value fits a double (cents, counts).
  const values = row as Record<string, number | string | null>;
  const counters = Object.fromEntries(COUNTERS.map((c) => [c, Number(values[c] ?? 0)])) as Record<Counter, number>;
  const lastAt = Object.fromEntries(LAST_AT.map((l) => [l, values[l] === null ? null : Number(values[l])])) as Record<
    LastAt,
    number | null
  >;
  return { ...counters, ...lastAt };
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
