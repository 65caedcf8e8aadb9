import { randomBytes } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { initialMigration } from './migrations/0001_initial';
import { eventsTestIndexMigration } from './migrations/0002_events_test_index';
import { productionSignInMigration } from './migrations/0003_production_sign_in';
import { leadByBrowserMigration } from './migrations/0004_lead_by_browser';
import { partnersPayoutsMigration } from './migrations/0005_partners_payouts';
import { partnersTestFlagMigration } from './migrations/0006_partners_test_flag';
import { outboundWebhooksMigration } from './migrations/0007_outbound_webhooks';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** Removes every row (the test-control reset); the schema stays. */
  wipe(): Promise<void>;
  /** Resolves when the database answers a trivial query (`GET /healthz`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /**
   * PostgreSQL only: run in this schema (created when missing). Tests give each server its own schema so
   * files run in parallel on one database; `dropSchemaOnClose` removes it afterwards.
   */
  pgSchema?: string;
  dropSchemaOnClose?: boolean;
}

// int8 (bigint) and numeric come back from pg as strings; every such column here holds an integer that
// fits in a double (epoch ms, cents, ids), so parse them once at the driver.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Opens the store named by a DATABASE_URL: `sqlite::memory:`, `sqlite:<file>` or `postgres://…`
 * (`?schema=<name>` picks a PostgreSQL schema). Runs migrations before returning.
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  throw new Error(`DATABASE_URL must be sqlite::memory:, sqlite:<file> or postgres://…; got ${url}`);
}

async function openSqlite(file: string): Promise<Store> {
  const sqlite = new SqliteDatabase(file === ':memory:' ? ':memory:' : file);
  // WAL: readers never block the writer, and a committed transaction survives a killed process.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db, 'sqlite');
  return {
    db,
    dialect: 'sqlite',
    wipe: () => wipeAll(db),
    ping: () => ping(db),
    close: () => db.destroy(),
  };
}

/**
 * Kysely's SQLite driver prepares every statement anew, and preparing cost more than running the small
 * statements of a tracking request (BENCHMARKS.md, profiling: `prepare` was 17 % of the click route's CPU).
 * The queries are a small fixed set of SQL texts, so statements are kept by text; the bound only guards
 * against a caller that builds unbounded variants.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string): SqliteDatabase.Statement {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= 500) statements.clear();
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

async function openPostgres(rawUrl: string, options: OpenStoreOptions): Promise<Store> {
  const url = new URL(rawUrl);
  const schema = options.pgSchema ?? url.searchParams.get('schema') ?? 'public';
  url.searchParams.delete('schema');
  if (!/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);

  const bootstrap = new pg.Client({ connectionString: url.toString() });
  await bootstrap.connect();
  await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await bootstrap.end();

  const pool = new pg.Pool({ connectionString: url.toString(), max: 10, options: `-c search_path="${schema}"` });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db, 'postgres', schema);
  return {
    db,
    dialect: 'postgres',
    wipe: () => wipeAll(db),
    ping: () => ping(db),
    async close() {
      if (options.dropSchemaOnClose && schema !== 'public') {
        await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db);
      }
      await db.destroy();
    },
  };
}

const ping = async (db: Kysely<Database>) => {
  await sql`select 1`.execute(db);
};

/** A fresh, unique PostgreSQL schema name for one test server. */
export function uniqueSchemaName(prefix = 'svc_t'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

async function migrate(db: Kysely<Database>, dialect: Dialect, pgSchema?: string): Promise<void> {
  const migrations: Record<string, Migration> = {
    '0001_initial': initialMigration(dialect),
    '0002_events_test_index': eventsTestIndexMigration,
    '0003_production_sign_in': productionSignInMigration(dialect),
    '0004_lead_by_browser': leadByBrowserMigration,
    '0005_partners_payouts': partnersPayoutsMigration(dialect),
    '0006_partners_test_flag': partnersTestFlagMigration,
    '0007_outbound_webhooks': outboundWebhooksMigration(dialect),
  };
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Name the schema of Kysely's own tables: without it, the migrator takes a `kysely_migration_lock` in ANY schema
  // (another test server's) as ours, skips creating it, and fails under parallel PostgreSQL tests.
  const { error } = await new Migrator({ db, provider, ...(pgSchema ? { migrationTableSchema: pgSchema } : {}) }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
}

const tables: (keyof Database)[] = [
  'accounts',
  'advertisers',
  'workspaces',
  'memberships',
  'programs',
  'partners',
  'referral_links',
  'clicks',
  'customers',
  'sales',
  'commissions',
  'events',
  'program_metrics',
  'daily_metrics',
  'daily_amounts',
  'login_sessions',
  'sign_in_attempts',
  'login_tokens',
  'dashboard_sessions',
  'processor_events',
  'chain_runs',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
];

async function wipeAll(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of tables) await trx.deleteFrom(table).execute();
  });
}
