import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * The commission lifecycle:
 * - `programs.commission_hold_days` (0 to 365) and `min_payout_cents`, both 0 by default so nothing changes until set;
 * - `commissions.due_at`: when a stored `pending` commission becomes payable (created_at + the hold); the existing
 *   ones were due when created;
 * - `commissions.kind` (`sale`, `adjustment`) and `sale_id` nullable: an adjustment has no sale.
 * SQLite cannot drop a NOT NULL, so there the table is rebuilt from its own stored definition (whatever columns
 * other migrations added), its rows, `AUTOINCREMENT` counter and indexes kept.
 */
export function commissionLifecycleMigration(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('programs')
        .addColumn('commission_hold_days', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('programs')
        .addColumn('min_payout_cents', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('commissions').addColumn('due_at', sql.raw(big)).execute();
      await db.schema
        .alterTable('commissions')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('sale'))
        .execute();
      await sql`update commissions set due_at = created_at`.execute(db);
      if (dialect === 'postgres') {
        await sql`alter table commissions alter column due_at set not null`.execute(db);
        await sql`alter table commissions alter column sale_id drop not null`.execute(db);
      } else {
        await rebuildSqliteCommissions(db);
      }
      // The commission list: a program's commissions newest first (by id), optionally of one partner or status.
      await db.schema.createIndex('commissions_program_id').on('commissions').columns(['program_id', 'id']).execute();
    },
  };
}

async function rebuildSqliteCommissions(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'commissions'`.execute(db);
  const table = rows.find((r) => r.type === 'table')?.sql;
  if (!table) throw new Error('commissions table not found');
  const changed = table
    .replace(/^create table "commissions"/i, 'create table "commissions_rebuilt"')
    .replace('"sale_id" integer not null unique', '"sale_id" integer unique')
    .replace('"due_at" integer', '"due_at" integer not null');
  if (
    changed.includes('"sale_id" integer not null') ||
    !changed.includes('commissions_rebuilt') ||
    !changed.includes('"due_at" integer not null')
  )
    throw new Error(`unexpected commissions definition: ${table}`);
  // Explicit indexes only (the UNIQUE of sale_id comes back with the table).
  const indexes = rows.filter((r) => r.type === 'index' && r.sql !== null).map((r) => r.sql!);
  await sql.raw(changed).execute(db);
  await sql`insert into commissions_rebuilt select * from commissions`.execute(db);
  await sql`drop table commissions`.execute(db);
  // Renaming also renames the table's row of sqlite_sequence, so ids go on from where they were.
  await sql`alter table commissions_rebuilt rename to commissions`.execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}
