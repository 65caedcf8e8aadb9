import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { commissionLifecycleMigration } from './0011_commission_lifecycle';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

/** Back to the schema before 0011: no hold settings, no due_at or kind, sale_id NOT NULL (SQLite: rebuilt by hand). */
async function before0011(store: Store): Promise<void> {
  const db = store.db as unknown as Kysely<unknown>;
  await db.schema.dropIndex('commissions_program_id').execute();
  for (const column of ['commission_hold_days', 'min_payout_cents']) await db.schema.alterTable('programs').dropColumn(column).execute();
  for (const column of ['due_at', 'kind']) await db.schema.alterTable('commissions').dropColumn(column).execute();
  if (store.dialect === 'postgres') {
    await sql`alter table commissions alter column sale_id set not null`.execute(db);
    return;
  }
  const { rows } = await sql<{
    type: string;
    sql: string | null;
  }>`select type, sql from sqlite_master where tbl_name = 'commissions'`.execute(db);
  const table = rows.find((r) => r.type === 'table')!.sql!;
  await sql
    .raw(table.replace('"commissions"', '"commissions_old"').replace('"sale_id" integer unique', '"sale_id" integer not null unique'))
    .execute(db);
  await sql`drop table commissions`.execute(db);
  await sql`alter table commissions_old rename to commissions`.execute(db);
  for (const r of rows) if (r.type === 'index' && r.sql && !r.sql.includes('commissions_program_id')) await sql.raw(r.sql).execute(db);
}

describe('migration 0011: hold period, due_at, adjustments without a sale', () => {
  it('keeps every commission and the id counter; existing ones were due when created; sale_id may then be null', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    await before0011(store);
    const raw = store.db as unknown as Kysely<any>;
    const old = { program_id: 1, partner_id: 2, amount_cents: 500, currency: 'USD', status: 'pending', reversed_at: null };
    await raw
      .insertInto('commissions')
      .values([
        { ...old, sale_id: 41, created_at: 1_000 },
        { ...old, sale_id: 43, created_at: 5_000, status: 'reversed' },
      ])
      .execute();
    await raw
      .insertInto('programs')
      .values({
        workspace_id: 1,
        advertiser_id: 1,
        name: 'Shop',
        domain: 'shop.example',
        commission_type: 'percent',
        commission_rate: 10,
        attribution_window_days: 30,
        lead_auth: 'server_required',
        api_key_hash: 'h',
        api_key_last4: 'abcd',
        created_at: 1,
      })
      .execute();

    await commissionLifecycleMigration(store.dialect).up(store.db as unknown as Kysely<unknown>);

    const db = store.db;
    expect(
      await db.selectFrom('commissions').select(['sale_id', 'status', 'due_at', 'created_at', 'kind']).orderBy('id').execute(),
    ).toEqual([
      { sale_id: 41, status: 'pending', due_at: 1_000, created_at: 1_000, kind: 'sale' },
      { sale_id: 43, status: 'reversed', due_at: 5_000, created_at: 5_000, kind: 'sale' },
    ]);
    expect(await db.selectFrom('programs').select(['commission_hold_days', 'min_payout_cents']).execute()).toEqual([
      { commission_hold_days: 0, min_payout_cents: 0 },
    ]);
    const values = {
      program_id: 1,
      partner_id: 2,
      amount_cents: -5,
      currency: 'USD' as const,
      status: 'pending' as const,
      created_at: 9,
      due_at: 9,
      reversed_at: null,
    };
    // Adjustments have no sale, and two of them do not collide on the sale's unique constraint; a sale's still does.
    const adjustment = await db
      .insertInto('commissions')
      .values({ ...values, sale_id: null, kind: 'adjustment' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('commissions')
      .values({ ...values, sale_id: null, kind: 'adjustment' })
      .execute();
    await expect(
      db
        .insertInto('commissions')
        .values({ ...values, sale_id: 41 })
        .execute(),
    ).rejects.toThrow();
    // Ids go on after the ones kept (the AUTOINCREMENT counter survives SQLite's rebuild).
    expect(adjustment.id).toBe(3);
    // due_at is required from now on.
    await expect(
      sql`insert into commissions (program_id, partner_id, amount_cents, currency, status, created_at) values (1, 2, 1, 'USD', 'pending', 1)`.execute(
        db,
      ),
    ).rejects.toThrow();
    const indexes =
      store.dialect === 'sqlite'
        ? (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index' and tbl_name = 'commissions' and sql is not null`.execute(db)
          ).rows
        : (
            await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where tablename = 'commissions' and schemaname = current_schema()`.execute(db)
          ).rows;
    expect(indexes.map((r) => r.name)).toEqual(
      expect.arrayContaining(['commissions_program_partner', 'commissions_partner_status', 'commissions_program_id']),
    );
  });
});
