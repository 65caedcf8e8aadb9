import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * The initial schema. Column types are chosen so one set of Kysely queries serves both stores:
 * times are epoch ms in `bigint` (parsed to numbers by the pg driver setup in db.ts), flags are integers.
 */
export function initialMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const real = dialect === 'postgres' ? 'double precision' : 'real';

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const table = (name: string) =>
        db.schema.createTable(name).addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        });

      await table('accounts')
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('advertisers')
        .addColumn('account_id', sql.raw(big), (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('workspaces')
        .addColumn('advertiser_id', sql.raw(big), (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('memberships')
        .addColumn('workspace_id', sql.raw(big), (c) => c.notNull())
        .addColumn('account_id', sql.raw(big), (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addUniqueConstraint('memberships_workspace_account', ['workspace_id', 'account_id'])
        .execute();
      await table('programs')
        .addColumn('workspace_id', sql.raw(big), (c) => c.notNull())
        .addColumn('advertiser_id', sql.raw(big), (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('commission_type', 'text', (c) => c.notNull())
        .addColumn('commission_rate', sql.raw(real), (c) => c.notNull())
        .addColumn('attribution_window_days', 'integer', (c) => c.notNull())
        .addColumn('lead_auth', 'text', (c) => c.notNull())
        .addColumn('allowed_origins', 'text')
        .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('api_key_last4', 'text', (c) => c.notNull())
        .addColumn('key_marked_at', sql.raw(big))
        .addColumn('key_rotate_by', sql.raw(big))
        .addColumn('processor_account', 'text', (c) => c.unique())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('partners')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('referral_links')
        .addColumn('program_id', sql.raw(big))
        .addColumn('partner_id', sql.raw(big))
        .addColumn('short_link', 'text', (c) => c.notNull().unique())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('clicks')
        .addColumn('click_id', 'text', (c) => c.notNull().unique())
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
        .addColumn('link_id', sql.raw(big), (c) => c.notNull())
        .addColumn('is_test', 'integer', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('clicks_program').on('clicks').columns(['program_id', 'id']).execute();
      await table('customers')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('customer_key', 'text')
        .addColumn('click_id', 'text')
        .addColumn('partner_id', sql.raw(big))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('provisional', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_test', 'integer', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('lead_at', sql.raw(big))
        .addColumn('converted_at', sql.raw(big))
        .addColumn('clicked_at', sql.raw(big))
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addColumn('updated_at', sql.raw(big), (c) => c.notNull())
        .execute();
      // A customer key names one customer per program and world (real or test); a click names one customer.
      await db.schema
        .createIndex('customers_program_key')
        .unique()
        .on('customers')
        .columns(['program_id', 'is_test', 'customer_key'])
        .execute();
      await db.schema.createIndex('customers_click').unique().on('customers').column('click_id').execute();
      await table('sales')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('customer_id', sql.raw(big))
        .addColumn('partner_id', sql.raw(big))
        // spec/rules.md "Resources/Sale record": processor_event_id is unique globally, not per program.
        .addColumn('processor_event_id', 'text', (c) => c.notNull().unique())
        .addColumn('amount_cents', sql.raw(big), (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('is_test', 'integer', (c) => c.notNull())
        .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('refunded_at', sql.raw(big))
        .addColumn('refund_reason', 'text')
        .addColumn('refund_note', 'text')
        .addColumn('provider', 'text')
        .addColumn('provider_payment_id', 'text')
        .addColumn('livemode', 'integer')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('occurred_at', sql.raw(big), (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sales_program').on('sales').columns(['program_id', 'id']).execute();
      await table('commissions')
        .addColumn('sale_id', sql.raw(big), (c) => c.notNull().unique())
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
        .addColumn('amount_cents', sql.raw(big), (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addColumn('reversed_at', sql.raw(big))
        .execute();
      await table('events')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('is_test', 'integer', (c) => c.notNull())
        .addColumn('occurred_at', sql.raw(big), (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big))
        .addColumn('click_id', 'text')
        .addColumn('customer_key', 'text')
        .addColumn('provisional', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sale_id', sql.raw(big))
        .addColumn('amount_cents', sql.raw(big))
        .addColumn('currency', 'text')
        .addColumn('source', 'text')
        .execute();
      await db.schema.createIndex('events_program').on('events').columns(['program_id', 'id']).execute();
      await db.schema
        .createTable('program_metrics')
        .addColumn('program_id', sql.raw(big), (c) => c.primaryKey())
        .addColumn('clicks', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('leads', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('processor_sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('test_clicks', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('test_leads', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('test_sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('last_click_at', sql.raw(big))
        .addColumn('last_lead_at', sql.raw(big))
        .addColumn('last_sale_at', sql.raw(big))
        .addColumn('last_processor_sale_at', sql.raw(big))
        .addColumn('last_event_at', sql.raw(big))
        .execute();
      await db.schema
        .createTable('daily_metrics')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
        .addColumn('clicks', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('leads', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('sales', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('daily_metrics_pk', ['program_id', 'day', 'partner_id'])
        .execute();
      await db.schema
        .createTable('daily_amounts')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('revenue_cents', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addColumn('commissions_cents', sql.raw(big), (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('daily_amounts_pk', ['program_id', 'day', 'partner_id', 'currency'])
        .execute();
      await table('login_sessions')
        .addColumn('state', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addColumn('completed_at', sql.raw(big))
        .addColumn('account_id', sql.raw(big))
        .addColumn('consumed_at', sql.raw(big))
        .execute();
      await table('login_tokens')
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', sql.raw(big), (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addColumn('expires_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('dashboard_sessions')
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', sql.raw(big), (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .addColumn('expires_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('processor_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('program_id', sql.raw(big))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await table('chain_runs')
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chain_runs_program').on('chain_runs').columns(['program_id', 'created_at']).execute();
    },
  };
}
