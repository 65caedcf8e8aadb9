import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * The audit log (domain/audit/): one append-only row per money or access action on a program. The actor's label
 * (an email, `api key …last4`, `system`) is written as it was at the time, so a later change of email or key
 * never rewrites history; nothing updates or deletes these rows but the test-control reset.
 */
export function auditLogMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        })
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('at', sql.raw(big), (c) => c.notNull())
        .addColumn('actor_account_id', sql.raw(big))
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .execute();
      // Newest first per program, optionally of one action (the log's only reads).
      await db.schema.createIndex('audit_log_program').on('audit_log').columns(['program_id', 'id']).execute();
      await db.schema.createIndex('audit_log_program_action').on('audit_log').columns(['program_id', 'action', 'id']).execute();
    },
  };
}
