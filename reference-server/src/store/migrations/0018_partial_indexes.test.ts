import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

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

describe('migration 0018: partial indexes', () => {
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
    const byPayout = `select id from commissions where payout_id = 7 or clawback_payout_id = 7`;
    const payouts = await plan(store, byPayout);
    expect(payouts).toContain('commissions_payout');
    expect(payouts).toContain('commissions_clawback_payout');
  });
});
