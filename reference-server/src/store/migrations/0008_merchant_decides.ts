import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * Tenancy: the merchant decides over the merchant's program.
 * - `partners.invitation` (`pending`, `accepted`, `declined`) and `invited_by_account_id`: the partner view shows a
 *   program only once its invitation is accepted; partners that exist now were already visible, so they count as
 *   accepted.
 * - `referral_links.disabled_by` (`merchant`, `partner`, null): a partner may turn back on only what they turned off.
 *   Who turned off a link before this migration is unknown, so the merchant did: only the merchant turns it on.
 * - `commissions.hold_reason` (`partner_suspended` for a `held` commission earned while the partner was suspended)
 *   and the merchant's decision on a commission (`decided_by_account_id`, `decided_at`, `decline_reason`).
 */
export function merchantDecidesMigration(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('partners')
        .addColumn('invitation', 'text', (c) => c.notNull().defaultTo('accepted'))
        .execute();
      await db.schema.alterTable('partners').addColumn('invited_by_account_id', sql.raw(big)).execute();
      await db.schema.alterTable('referral_links').addColumn('disabled_by', 'text').execute();
      await sql`update referral_links set disabled_by = 'merchant' where enabled = 0`.execute(db);
      await db.schema.alterTable('commissions').addColumn('hold_reason', 'text').execute();
      await db.schema.alterTable('commissions').addColumn('decided_by_account_id', sql.raw(big)).execute();
      await db.schema.alterTable('commissions').addColumn('decided_at', sql.raw(big)).execute();
      await db.schema.alterTable('commissions').addColumn('decline_reason', 'text').execute();
      // The release of a reactivated partner's held commissions reads them by partner and status.
      await db.schema.createIndex('commissions_partner_status').on('commissions').columns(['partner_id', 'status']).execute();
    },
  };
}
