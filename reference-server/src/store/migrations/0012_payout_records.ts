import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * Payouts as records and per-partner terms (issue 32). A `payouts` row is what the owner recorded paying one partner:
 * totals per currency (JSON, written once), reference, method, note and who. A commission gains `payout_id` (the
 * payout that paid it) and `clawback_payout_id` (the payout that netted it after a refund). A partner gains its own
 * `commission_type` and `commission_rate` (both null: the program's). A program gains `min_payout_cents`.
 */
export function payoutRecordsMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const rate = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('payouts')
        .addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        })
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
        .addColumn('through', sql.raw(big), (c) => c.notNull())
        .addColumn('totals', 'text', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('method', 'text')
        .addColumn('note', 'text')
        .addColumn('created_by_account_id', sql.raw(big))
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      // Newest first per program, optionally of one partner (the history's only reads).
      await db.schema.createIndex('payouts_program').on('payouts').columns(['program_id', 'id']).execute();
      await db.schema.createIndex('payouts_program_partner').on('payouts').columns(['program_id', 'partner_id', 'id']).execute();
      await db.schema.alterTable('commissions').addColumn('payout_id', sql.raw(big)).execute();
      await db.schema.alterTable('commissions').addColumn('clawback_payout_id', sql.raw(big)).execute();
      await db.schema.createIndex('commissions_payout').on('commissions').column('payout_id').execute();
      await db.schema.createIndex('commissions_clawback_payout').on('commissions').column('clawback_payout_id').execute();
      await db.schema.alterTable('partners').addColumn('commission_type', 'text').execute();
      await db.schema.alterTable('partners').addColumn('commission_rate', sql.raw(rate)).execute();
      // also in 0011 (lifecycle): coordinator keeps one
      await db.schema
        .alterTable('programs')
        .addColumn('min_payout_cents', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
