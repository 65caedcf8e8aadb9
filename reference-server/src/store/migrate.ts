import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { initialMigration } from './migrations/0001_initial';
import { eventsTestIndexMigration } from './migrations/0002_events_test_index';
import { productionSignInMigration } from './migrations/0003_production_sign_in';
import { leadByBrowserMigration } from './migrations/0004_lead_by_browser';
import { partnersPayoutsMigration } from './migrations/0005_partners_payouts';
import { partnersTestFlagMigration } from './migrations/0006_partners_test_flag';
import { outboundWebhooksMigration } from './migrations/0007_outbound_webhooks';
import { merchantDecidesMigration } from './migrations/0008_merchant_decides';
import { stripeConnectMigration } from './migrations/0009_stripe_connect';
import { auditLogMigration } from './migrations/0010_audit_log';
import { commissionLifecycleMigration } from './migrations/0011_commission_lifecycle';
import { payoutRecordsMigration } from './migrations/0012_payout_records';
import { riskSignalsMigration } from './migrations/0013_risk_signals';
import { dashboardDataMigration } from './migrations/0014_dashboard_data';
import { dashboardPagesIndexesMigration } from './migrations/0016_dashboard_pages_indexes';
import { metricShardsMigration } from './migrations/0017_metric_shards';
import { trackingWriteIndexesMigration } from './migrations/0018_tracking_write_indexes';
import type { Dialect } from './db';
import type { Database } from './schema';

/** Every migration, by the name Kysely records it under, in order: the schema's source of truth. */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_initial': initialMigration(dialect),
    '0002_events_test_index': eventsTestIndexMigration,
    '0003_production_sign_in': productionSignInMigration(dialect),
    '0004_lead_by_browser': leadByBrowserMigration,
    '0005_partners_payouts': partnersPayoutsMigration(dialect),
    '0006_partners_test_flag': partnersTestFlagMigration,
    '0007_outbound_webhooks': outboundWebhooksMigration(dialect),
    '0008_merchant_decides': merchantDecidesMigration(dialect),
    '0009_stripe_connect': stripeConnectMigration(dialect),
    '0010_audit_log': auditLogMigration(dialect),
    '0011_commission_lifecycle': commissionLifecycleMigration(dialect),
    '0012_payout_records': payoutRecordsMigration(dialect),
    '0013_risk_signals': riskSignalsMigration(dialect),
    '0014_dashboard_data': dashboardDataMigration(dialect),
    '0016_dashboard_pages_indexes': dashboardPagesIndexesMigration,
    '0017_metric_shards': metricShardsMigration(dialect),
    '0018_tracking_write_indexes': trackingWriteIndexesMigration,
  };
}

/** Brings the database to the latest schema; what has run is recorded in Kysely's `kysely_migration` table. */
export async function migrate(db: Kysely<Database>, dialect: Dialect, pgSchema?: string): Promise<void> {
  const migrations = migrationsFor(dialect);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Name the schema of Kysely's own tables: without it, the migrator takes a `kysely_migration_lock` in ANY schema
  // (another test server's) as ours, skips creating it, and fails under parallel PostgreSQL tests.
  const migrator = new Migrator({ db, provider, ...(pgSchema ? { migrationTableSchema: pgSchema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error } = await migrator.migrateToLatest();
    if (!error) return;
    // Kysely's introspector lists the tables of every schema before migrating; a schema another server drops at that
    // moment fails the read (`3F000`, naming that schema). Nothing was migrated then, so it is read again.
    if (attempt < 5 && otherSchemaVanished(error, pgSchema)) continue;
    throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  }
}

function otherSchemaVanished(error: unknown, ownSchema: string | undefined): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '3F000' && typeof message === 'string' && (ownSchema === undefined || !message.includes(`"${ownSchema}"`));
}
