import { type Kysely, sql } from 'kysely';

/** Indexes whose column is null on most rows when they are written, and is only ever looked up by value. */
const partial = [
  // A click's customer has no key until its lead; customers are read by key with `=` or `in` only.
  {
    name: 'customers_program_key',
    table: 'customers',
    columns: ['program_id', 'is_test', 'customer_key'],
    column: 'customer_key',
    unique: true,
  },
  // A commission is written with neither payout; the payouts read theirs with `=` only (store/payouts.ts).
  { name: 'commissions_payout', table: 'commissions', columns: ['payout_id'], column: 'payout_id', unique: false },
  {
    name: 'commissions_clawback_payout',
    table: 'commissions',
    columns: ['clawback_payout_id'],
    column: 'clawback_payout_id',
    unique: false,
  },
] as const;

/**
 * These indexes only on the rows where their column is not null. Each null entry was one more b-tree written per row
 * for nothing: every new click's customer (null key) and every new sale's commission (no payout, no clawback), in the
 * SQLite batch's statements, its WAL pages and its checkpoints (docs/performance-notes.md, "SQLite: one statement per
 * table"). Nothing reads them by null: an `=` or `in` on the column implies it is not null, so SQLite and PostgreSQL
 * use the partial index for the same lookups as before. Uniqueness is unchanged: a unique index never compared nulls.
 */
export const partialIndexesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const index of partial) {
      await db.schema.dropIndex(index.name).execute();
      await sql`create ${sql.raw(index.unique ? 'unique ' : '')}index ${sql.id(index.name)} on ${sql.id(index.table)} (${sql.join(
        index.columns.map((column) => sql.id(column)),
      )}) where ${sql.id(index.column)} is not null`.execute(db);
    }
  },
};
