import type { Kysely } from 'kysely';

/**
 * `customers.lead_by_browser`: 1 while the customer's lead came only from a browser-mode call at a
 * `browser_allowed` program. Anyone can send such a lead, so a later server-mode lead (program key) for the same
 * customer key is not refused by it and decides the attribution (spec/openapi.yaml, trackLead **Decision**).
 */
export const leadByBrowserMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('customers')
      .addColumn('lead_by_browser', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('customers').dropColumn('lead_by_browser').execute();
  },
};
