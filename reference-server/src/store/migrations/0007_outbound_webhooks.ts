import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * Outbound webhooks (spec/openapi.yaml, tag `outbound-webhooks`): a program's endpoints, the outbox of events
 * (written in the transaction of the record each describes) and one delivery per event and endpoint, which the
 * delivery loop claims (`lease_token`, `locked_until`) and retries on its schedule.
 */
export function outboundWebhooksMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const table = (name: string) =>
        db.schema.createTable(name).addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        });
      await table('webhook_endpoints')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('secret_last4', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_program').on('webhook_endpoints').columns(['program_id', 'id']).execute();

      await table('webhook_events')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();

      await table('webhook_deliveries')
        .addColumn('event_id', sql.raw(big), (c) => c.notNull())
        .addColumn('endpoint_id', sql.raw(big), (c) => c.notNull())
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', sql.raw(big))
        .addColumn('lease_token', 'text')
        .addColumn('locked_until', sql.raw(big))
        .addColumn('last_attempt_at', sql.raw(big))
        .addColumn('last_response_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      // The loop's claim reads pending deliveries by due time; the dashboard an endpoint's newest; pruning by event.
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
      await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('webhook_deliveries').execute();
      await db.schema.dropTable('webhook_events').execute();
      await db.schema.dropTable('webhook_endpoints').execute();
    },
  };
}
