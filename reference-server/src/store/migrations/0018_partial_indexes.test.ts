import { type Kysely, type Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { migratingDatabase } from './migrating-database';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  await close?.();
  close = undefined;
});

/** The plan of `query`, as one text; PostgreSQL is kept from scanning the tables, so it shows which index it can use. */
async function plan(store: Store, query: string): Promise<string> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql.raw<{ detail: string }>(`explain query plan ${query}`).execute(store.db);
    return rows.map((row) => row.detail).join('\n');
  }
  return store.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${query}`).execute(trx);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

/** A database of this test's own (migrating-database.ts); dropped after the test. */
async function emptyDatabase(): Promise<{ db: Kysely<unknown>; migrator: Migrator }> {
  const opened = await migratingDatabase('m0018');
  close = opened.close;
  return opened;
}

const customer = (id: number, key: string | null, click: string | null) =>
  sql`insert into customers (id, program_id, customer_key, click_id, status, is_test, created_at, updated_at)
      values (${id}, 1, ${key}, ${click}, 'clicked', 0, 0, 0)`;

describe('migration 0018: partial indexes', () => {
  it('keeps customers and their keys and clicks, still one customer per key and per click, any number without', async () => {
    const { db, migrator } = await emptyDatabase();
    expect((await migrator.migrateTo('0017_metric_shards')).error).toBeUndefined();
    await customer(1, 'k-1', 'clk-1').execute(db);
    await customer(2, null, 'clk-2').execute(db);
    await customer(3, 'k-3', null).execute(db);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    await customer(4, null, 'clk-4').execute(db);
    await customer(5, 'k-5', null).execute(db);
    await customer(6, null, null).execute(db);
    await expect(customer(7, 'k-1', null).execute(db)).rejects.toThrow(/unique/i);
    await expect(customer(8, null, 'clk-2').execute(db)).rejects.toThrow(/unique/i);
    // The same key in another world (test mode) is another customer, as before.
    await sql`insert into customers (id, program_id, customer_key, status, is_test, created_at, updated_at)
              values (9, 1, 'k-1', 'clicked', 1, 0, 0)`.execute(db);
    const found = await sql<{ id: number }>`select id from customers where program_id = 1 and is_test = 0 and customer_key = 'k-3'`.execute(
      db,
    );
    expect(found.rows.map((row) => Number(row.id))).toEqual([3]);
    const byClick = await sql<{ id: number }>`select id from customers where click_id = 'clk-4'`.execute(db);
    expect(byClick.rows.map((row) => Number(row.id))).toEqual([4]);

    // And back: the full indexes again, over the rows written meanwhile.
    expect((await migrator.migrateTo('0017_metric_shards')).error).toBeUndefined();
    await expect(customer(10, 'k-5', null).execute(db)).rejects.toThrow(/unique/i);
  });

  it('keeps a customer key unique per program and world, and any number of customers without one', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const customer = (id: number, key: string | null) =>
      store!.db
        .insertInto('customers')
        .values({
          id,
          program_id: 1,
          customer_key: key,
          click_id: `clk_${id}`,
          status: 'clicked',
          is_test: 0,
          created_at: 1,
          updated_at: 1,
        })
        .execute();
    await customer(1, null);
    await customer(2, null);
    await customer(3, 'a');
    await expect(customer(4, 'a')).rejects.toThrow(/unique|UNIQUE/);
  });

  it('still serves the lookups by customer key and by payout', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const byKey =
      store.dialect === 'sqlite'
        ? `select * from customers where program_id = 1 and is_test = 0 and customer_key in (select value from json_each('["a","b"]'))`
        : `select found.* from unnest(array['a','b']::text[]) as key(key) inner join lateral (select * from customers ` +
          `where program_id = 1 and is_test = 0 and customer_key = key.key limit 1) as found on true`;
    expect(await plan(store, byKey)).toContain('customers_program_key');
    expect(await plan(store, `select id from customers where click_id = 'clk_1'`)).toContain('customers_click');
    const byPayout = `select id from commissions where payout_id = 7 or clawback_payout_id = 7`;
    const payouts = await plan(store, byPayout);
    expect(payouts).toContain('commissions_payout');
    expect(payouts).toContain('commissions_clawback_payout');
  });
});
