import { type Kysely, sql } from 'kysely';

/**
 * Fewer index entries for each click, with the same lookups served. A click's customer has no key (and a lead without
 * a click no click): their NULLs in the unique indexes `customers_program_key` and `customers_click` were entries
 * nobody looks up, every read being `= …` or `in (…)`, which implies `is not null`, so both stores' planners still
 * pick the partial indexes. On PostgreSQL those NULLs are equal keys, kept as posting lists that each insert rewrites
 * and logs. `clicks_program` served only the test-control `records` listing of a program's clicks. A click now writes
 * eight index entries instead of ten (docs/performance-notes.md, "PostgreSQL: a click's index entries").
 */
export const trackingWriteIndexesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('clicks_program').execute();
    await db.schema.dropIndex('customers_program_key').execute();
    await sql`create unique index "customers_program_key" on "customers" ("program_id", "is_test", "customer_key") where "customer_key" is not null`.execute(
      db,
    );
    await db.schema.dropIndex('customers_click').execute();
    await sql`create unique index "customers_click" on "customers" ("click_id") where "click_id" is not null`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('customers_click').execute();
    await db.schema.createIndex('customers_click').on('customers').column('click_id').unique().execute();
    await db.schema.dropIndex('customers_program_key').execute();
    await db.schema
      .createIndex('customers_program_key')
      .on('customers')
      .columns(['program_id', 'is_test', 'customer_key'])
      .unique()
      .execute();
    await db.schema.createIndex('clicks_program').on('clicks').columns(['program_id', 'id']).execute();
  },
};
