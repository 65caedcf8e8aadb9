import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * Production sign-in (docs/deploying.md): accounts keyed by issuer + subject, OpenID Connect sign-in attempts
 * (state, nonce and PKCE verifier kept server-side), CLI logins confirmed with a user code, and the one server
 * secret every instance on this database shares.
 */
export function productionSignInMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();

      await db.schema.alterTable('accounts').addColumn('oidc_issuer', 'text').execute();
      await db.schema.alterTable('accounts').addColumn('oidc_subject', 'text').execute();
      await db.schema.createIndex('accounts_oidc_identity').on('accounts').columns(['oidc_issuer', 'oidc_subject']).unique().execute();

      // The login state is a bearer secret until the session is consumed: only its SHA-256 is kept.
      await db.deleteFrom('login_sessions' as never).execute();
      await db.schema.alterTable('login_sessions').renameColumn('state', 'state_hash').execute();
      await db.schema.alterTable('login_sessions').addColumn('user_code', 'text').execute();
      await db.schema.alterTable('login_sessions').addColumn('pending_account_id', sql.raw(big)).execute();
      await db.schema.alterTable('login_sessions').addColumn('confirm_hash', 'text').execute();
      await db.schema.createIndex('login_sessions_confirm').on('login_sessions').column('confirm_hash').unique().execute();

      await db.schema
        .createTable('sign_in_attempts')
        .addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        })
        .addColumn('state_hash', 'text', (c) => c.notNull().unique())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('cli_state_hash', 'text')
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addColumn('used_at', sql.raw(big))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('sign_in_attempts').execute();
      await db.schema.dropIndex('login_sessions_confirm').execute();
      await db.schema.alterTable('login_sessions').dropColumn('confirm_hash').execute();
      await db.schema.alterTable('login_sessions').dropColumn('pending_account_id').execute();
      await db.schema.alterTable('login_sessions').dropColumn('user_code').execute();
      await db.schema.alterTable('login_sessions').renameColumn('state_hash', 'state').execute();
      await db.schema.dropIndex('accounts_oidc_identity').execute();
      await db.schema.alterTable('accounts').dropColumn('oidc_subject').execute();
      await db.schema.alterTable('accounts').dropColumn('oidc_issuer').execute();
      await db.schema.dropTable('server_secrets').execute();
    },
  };
}
