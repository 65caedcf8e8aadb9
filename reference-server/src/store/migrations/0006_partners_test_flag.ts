import { type Kysely, sql } from 'kysely';

/**
 * `partners.is_test`: 1 for the test partner that the CLI's test clicks go through (`domain/cli/test-fixture.ts`),
 * flagged like every other test record (spec/rules.md "What the service does", item 6) so that no list, export or payout takes it
 * for one of the program's partners. Fixtures created before this migration are recognised by their link
 * (`svc-test-<program id>`) and flagged too.
 */
export const partnersTestFlagMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('partners')
      .addColumn('is_test', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update partners set is_test = 1 where id in (
      select partner_id from referral_links
      where partner_id is not null and program_id is not null and short_link = 'svc-test-' || program_id
    )`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('partners').dropColumn('is_test').execute();
  },
};
