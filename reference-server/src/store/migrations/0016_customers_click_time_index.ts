import type { Kysely } from 'kysely';

/**
 * A program's customers by the time of their first click: the performance report's conversion rates read the
 * customers its period's clicks made (`clickCohortByPartner` in store/dashboard.ts), so the read seeks to the period
 * instead of walking every customer of the program.
 */
export const customersClickTimeIndexMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.createIndex('customers_program_clicked').on('customers').columns(['program_id', 'clicked_at']).execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('customers_program_clicked').execute();
  },
};
