import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { readAmountTotals, readProgramMetrics } from '../engine';
import { metricShardsMigration } from './0017_metric_shards';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe('migration 0017: metric shards', () => {
  it("keeps every counter as shard 0's and lets other shards of the same program, day and partner be added", async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const db = store.db as unknown as Kysely<unknown>;
    const big = store.dialect === 'postgres' ? 'bigint' : 'integer';
    // The three tables as 0001_initial made them, with rows.
    for (const table of ['program_metrics', 'daily_metrics', 'daily_amounts']) await db.schema.dropTable(table).execute();
    await db.schema
      .createTable('program_metrics')
      .addColumn('program_id', sql.raw(big), (c) => c.primaryKey())
      .addColumn('clicks', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('leads', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('processor_sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('test_clicks', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('test_leads', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('test_sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('last_click_at', sql.raw(big))
      .addColumn('last_lead_at', sql.raw(big))
      .addColumn('last_sale_at', sql.raw(big))
      .addColumn('last_processor_sale_at', sql.raw(big))
      .addColumn('last_event_at', sql.raw(big))
      .execute();
    await db.schema
      .createTable('daily_metrics')
      .addColumn('program_id', sql.raw(big), (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
      .addColumn('clicks', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('leads', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('daily_metrics_pk', ['program_id', 'day', 'partner_id'])
      .execute();
    await db.schema
      .createTable('daily_amounts')
      .addColumn('program_id', sql.raw(big), (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('revenue_cents', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addColumn('commissions_cents', sql.raw(big), (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('daily_amounts_pk', ['program_id', 'day', 'partner_id', 'currency'])
      .execute();
    await sql`insert into program_metrics (program_id, clicks, sales, last_click_at) values (7, 40, 2, 1000), (8, 1, 0, null)`.execute(db);
    await sql`insert into daily_metrics (program_id, day, partner_id, clicks) values (7, '2026-11-27', 3, 40)`.execute(db);
    await sql`insert into daily_amounts (program_id, day, partner_id, currency, revenue_cents, commissions_cents)
              values (7, '2026-11-27', 3, 'USD', 5000, 500)`.execute(db);

    await metricShardsMigration(store.dialect).up(db);

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
    expect(await readProgramMetrics(store.db, 7)).toMatchObject({
      clicks: 42,
      sales: 2,
      leads: 0,
      last_click_at: 2000,
      last_lead_at: null,
    });
    const [totals] = await readAmountTotals(store.db, 7);
    expect([Number(totals!.revenue_cents), Number(totals!.commissions_cents)]).toEqual([5100, 500]);
    const daily = await sql<{ clicks: number }>`select sum(clicks) as clicks from daily_metrics where program_id = 7`.execute(db);
    expect(Number(daily.rows[0]!.clicks)).toBe(42);
  });
});
