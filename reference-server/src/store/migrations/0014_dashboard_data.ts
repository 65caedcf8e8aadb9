import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * What the dashboard shows beyond counters: each outbound webhook attempt (`webhook_attempts`: when, how long, the
 * answer's status and the start of its body, or why none came) and pending team invitations (`membership_invitations`:
 * an email invited to a workspace with a role, turned into a membership when that email's account signs in).
 */
export function dashboardDataMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const table = (db: Kysely<unknown>, name: string) =>
    db.schema.createTable(name).addColumn('id', sql.raw(id), (c) => {
      const pk = c.primaryKey();
      return dialect === 'sqlite' ? pk.autoIncrement() : pk;
    });
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await table(db, 'webhook_attempts')
        .addColumn('delivery_id', sql.raw(big), (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('at', sql.raw(big), (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_excerpt', 'text')
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'id']).execute();

      await table(db, 'membership_invitations')
        .addColumn('workspace_id', sql.raw(big), (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('invited_by_account_id', sql.raw(big))
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addUniqueConstraint('membership_invitations_workspace_email', ['workspace_id', 'email'])
        .execute();
      await db.schema.createIndex('membership_invitations_email').on('membership_invitations').column('email').execute();
    },
  };
}
