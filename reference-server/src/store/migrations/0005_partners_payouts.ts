import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * Partners people sign in as, and paying them. A partner gains an `email` (the join with the account
 * that signs in to the partner view) and a `status` (`suspended` refuses its links' clicks). A commission gains
 * `paid_at` (a payout marked it paid) and `clawback_settled_at` (a commission reversed after payment, netted by a
 * later payout). Indexes serve the per-partner reads: links and commissions by program and partner, partners by email.
 */
export function partnersPayoutsMigration(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('partners').addColumn('email', 'text').execute();
      await db.schema
        .alterTable('partners')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .execute();
      await db.schema.alterTable('commissions').addColumn('paid_at', sql.raw(big)).execute();
      await db.schema.alterTable('commissions').addColumn('clawback_settled_at', sql.raw(big)).execute();
      await db.schema.createIndex('partners_program').on('partners').columns(['program_id', 'id']).execute();
      await db.schema.createIndex('partners_email').on('partners').column('email').execute();
      await db.schema.createIndex('referral_links_program_partner').on('referral_links').columns(['program_id', 'partner_id']).execute();
      await db.schema
        .createIndex('commissions_program_partner')
        .on('commissions')
        .columns(['program_id', 'partner_id', 'created_at'])
        .execute();
    },
  };
}
