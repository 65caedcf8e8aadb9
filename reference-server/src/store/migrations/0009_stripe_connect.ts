import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * "Connect with Stripe" (spec/openapi.yaml, `dashboardStartProcessorConnect`): one row per OAuth attempt between the
 * redirect to Stripe and its callback, bound to the signed-in account and the program. The `state` is a bearer
 * secret until used, so only its SHA-256 is kept, as for sign-in attempts.
 */
export function stripeConnectMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('processor_connect_states')
        .addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        })
        .addColumn('state_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', sql.raw(big), (c) => c.notNull())
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addColumn('used_at', sql.raw(big))
        .execute();
      await db.schema.createIndex('processor_connect_states_created').on('processor_connect_states').column('created_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('processor_connect_states').execute();
    },
  };
}
