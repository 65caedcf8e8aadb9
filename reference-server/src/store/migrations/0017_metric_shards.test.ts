import { type Kysely, type Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { readAmountTotals, readProgramMetrics, type Db } from '../engine';
import { migratingDatabase } from './migrating-database';

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

/** A database of this test's own (migrating-database.ts); dropped after the test. */
async function emptyDatabase(): Promise<{ db: Kysely<unknown>; migrator: Migrator }> {
  const opened = await migratingDatabase('m0017');
  close = opened.close;
  return opened;
}

describe('migration 0017: metric shards', () => {
  it("keeps every counter as shard 0's and lets other shards of the same program, day and partner be added", async () => {
    const { db, migrator } = await emptyDatabase();
    // The three tables as the migrations before 0017 left them, with rows.
    expect((await migrator.migrateTo('0016_dashboard_pages_indexes')).error).toBeUndefined();
    await sql`insert into program_metrics (program_id, clicks, sales, last_click_at) values (7, 40, 2, 1000), (8, 1, 0, null)`.execute(db);
    await sql`insert into daily_metrics (program_id, day, partner_id, clicks) values (7, '2026-11-27', 3, 40)`.execute(db);
    await sql`insert into daily_amounts (program_id, day, partner_id, currency, revenue_cents, commissions_cents)
              values (7, '2026-11-27', 3, 'USD', 5000, 500)`.execute(db);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    expect(await sql`select program_id, shard, clicks from program_metrics order by program_id`.execute(db)).toMatchObject({
      rows: [
        { program_id: 7, shard: 0, clicks: 40 },
        { program_id: 8, shard: 0, clicks: 1 },
      ],
    });
    // Another shard of the same keys is a row of its own; the old keys alone no longer refuse it.
    await sql`insert into program_metrics (program_id, shard, clicks, last_click_at) values (7, 5, 2, 2000)`.execute(db);
    await sql`insert into daily_metrics (program_id, day, partner_id, shard, clicks) values (7, '2026-11-27', 3, 5, 2)`.execute(db);
    await sql`insert into daily_amounts (program_id, day, partner_id, currency, shard, revenue_cents) values (7, '2026-11-27', 3, 'USD', 5, 100)`.execute(
      db,
    );
    // The new keys refuse a second row of one shard.
    await expect(sql`insert into program_metrics (program_id, shard) values (7, 5)`.execute(db)).rejects.toThrow();
    expect(await readProgramMetrics(db as unknown as Db, 7)).toMatchObject({
      clicks: 42,
      sales: 2,
      leads: 0,
      last_click_at: 2000,
      last_lead_at: null,
    });
    const [totals] = await readAmountTotals(db as unknown as Db, 7);
    expect([Number(totals!.revenue_cents), Number(totals!.commissions_cents)]).toEqual([5100, 500]);
    const daily = await sql<{ clicks: number }>`select sum(clicks) as clicks from daily_metrics where program_id = 7`.execute(db);
    expect(Number(daily.rows[0]!.clicks)).toBe(42);
  });
});
