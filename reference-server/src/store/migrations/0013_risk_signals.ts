import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * Risk signals held for review (domain/risk/):
 * - `risk_events`: one row per signal (kind, the partner, what it is about, the evidence as JSON);
 * - `customers.risk_kinds` and `partners.risk_kinds`: the kinds flagged on that customer or partner, comma-separated,
 *   so a sale decides whether its commission waits from rows it reads anyway (no extra read per sale);
 * - `customers.click_ip`: a hash of the attributing click's IP (the fast-conversion signal compares the lead's);
 * - `programs.risk_hold_kinds` (the kinds whose commissions are created `held`), `click_flood_threshold` and
 *   `fast_conversion_seconds`, defaults as documented on the settings route.
 */
export function riskSignalsMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('risk_events')
        .addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        })
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_type', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('at', sql.raw(big), (c) => c.notNull())
        .execute();
      // Newest first per program, optionally of one partner (the list's reads and the partner rows' counts).
      await db.schema.createIndex('risk_events_program').on('risk_events').columns(['program_id', 'id']).execute();
      await db.schema.createIndex('risk_events_program_partner').on('risk_events').columns(['program_id', 'partner_id', 'id']).execute();
      await db.schema.alterTable('customers').addColumn('risk_kinds', 'text').execute();
      await db.schema.alterTable('customers').addColumn('click_ip', 'text').execute();
      await db.schema.alterTable('partners').addColumn('risk_kinds', 'text').execute();
      await db.schema
        .alterTable('programs')
        .addColumn('risk_hold_kinds', 'text', (c) => c.notNull().defaultTo('self_referral,shared_identity'))
        .execute();
      await db.schema
        .alterTable('programs')
        .addColumn('click_flood_threshold', 'integer', (c) => c.notNull().defaultTo(10))
        .execute();
      await db.schema
        .alterTable('programs')
        .addColumn('fast_conversion_seconds', 'integer', (c) => c.notNull().defaultTo(2))
        .execute();
    },
  };
}
