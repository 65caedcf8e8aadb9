import type { Kysely } from 'kysely';

/**
 * The dashboard pages' reads, each seeking to what it needs instead of walking the program's rows: customers by the
 * time of their first click (the performance report's conversion rates read the customers a period's clicks made,
 * `clickCohortByPartner` in store/dashboard.ts), and audit entries by target (a partner's page lists those about it).
 */
export const dashboardPagesIndexesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.createIndex('customers_program_clicked').on('customers').columns(['program_id', 'clicked_at']).execute();
    await db.schema.createIndex('audit_log_program_target').on('audit_log').columns(['program_id', 'target', 'id']).execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('audit_log_program_target').execute();
    await db.schema.dropIndex('customers_program_clicked').execute();
  },
};
