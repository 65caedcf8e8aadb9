import { randomBytes } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import { startCheckpointer } from './checkpoint/start';
import { attachEngine } from './engine';
import { LookupCache, writesCachedTables } from './engine/lookup-cache';
import { preparedName } from './engine/prepared';
import { JOINED, statementRefused, type JoinedAnswer } from './engine/round-trips';
import { createFreshSchema } from './fresh-sqlite';
import { migrate, migrationsFor } from './migrate';
import { pgDriver } from './pg-driver';
import { sqliteAddonOptions } from './sqlite-addon';
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
  /** PostgreSQL: the cached lookups' age limit (store/engine/lookup-cache.ts); 1,000 ms by default. */
  lookupCacheMaxAgeMs?: number;
}

/**
 * Opens the store named by a DATABASE_URL: `sqlite::memory:`, `sqlite:<file>` or `postgres://…`
 * (`?schema=<name>` picks a PostgreSQL schema). Runs migrations before returning; a new SQLite database is given their
 * result in one go (store/fresh-sqlite.ts).
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  throw new Error(`DATABASE_URL must be sqlite::memory:, sqlite:<file> or postgres://…; got ${url}`);
}

async function openSqlite(file: string): Promise<Store> {
  const sqlite = new SqliteDatabase(file === ':memory:' ? ':memory:' : file, sqliteAddonOptions());
  // WAL: readers never block the writer, and a committed transaction survives a killed process.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('temp_store = MEMORY');
  // One process owns the file, so every write is seen here: the lookup cache needs no expiry (store/engine/lookup-cache.ts).
  const lookups = new LookupCache(undefined);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, lookups) }) });
  if (!createFreshSchema(sqlite, Object.keys(migrationsFor('sqlite')), new Date())) await migrate(db, 'sqlite');
  attachEngine(db, { dialect: 'sqlite', cache: lookups });
  const stopCheckpointer = file === ':memory:' ? async () => undefined : startCheckpointer(sqlite, file);
  return {
    db,
    dialect: 'sqlite',
    wipe: () => wipeAll(db),
    ping: () => ping(db),
    close: async () => {
      await stopCheckpointer();
      await db.destroy();
    },
  };
}

/**
 * Kysely's SQLite driver prepares every statement anew, and preparing cost more than running the small
 * statements of a tracking request (BENCHMARKS.md, profiling: `prepare` was 17 % of the click route's CPU).
 * The queries are a small fixed set of SQL texts, so statements are kept by text; the bound only guards
 * against a caller that builds unbounded variants. It leaves room for the held inserts' texts, up to 15 row counts
 * for each table and column set a batch writes (`sqliteChunk` in store/engine/deferred-inserts.ts).
 */
function withStatementCache(sqlite: SqliteDatabase.Database, lookups: LookupCache) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string): SqliteDatabase.Statement {
      // Kysely prepares each statement right before running it. One connection behind Kysely's mutex: no other
      // request reads between this write and its COMMIT, so emptying the cache now is enough (store/engine/lookup-cache.ts).
      if (writesCachedTables(text)) lookups.invalidate();
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
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

  const pg = pgDriver();
  const bootstrap = new pg.Client({ connectionString: url.toString() });
  await bootstrap.connect();
  await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await bootstrap.end();

  const pool = new pg.Pool({ connectionString: url.toString(), max: 10, options: `-c search_path="${schema}"` });
  const lookups = new LookupCache(options.lookupCacheMaxAgeMs ?? 1000);
  // Servers on one schema share a channel; each hears the others' (and its own) changes of cached rows.
  const channel = `svc_lookups_${schema}`;
  // A connection PostgreSQL ends (a restart, a terminated backend) fails the statement it was running, whose caller
  // answers for it, and the pool drops it; pg also emits 'error' on it (on the pool while it is idle), which with
  // no listener would end the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    watchStatements(client, lookups, channel);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db, 'postgres', schema);
  // Batches of this server and of the servers sharing the schema run side by side (store/engine/group-commit.ts).
  attachEngine(db, { dialect: 'postgres', cache: lookups });
  const listener = listenForChanges(url.toString(), channel, lookups);
  return {
    db,
    dialect: 'postgres',
    wipe: () => wipeAll(db),
    ping: () => ping(db),
    async close() {
      await listener.close();
      if (options.dropSchemaOnClose && schema !== 'public') {
        await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db);
      }
      await db.destroy();
    },
  };
}

/**
 * Every statement of a pooled connection passes here (store/engine/lookup-cache.ts). A write to a cached table empties
 * this process's cache when it runs and again when it is committed (in a transaction: at its `commit` or
 * `rollback`), and sends `pg_notify` on the same connection, which PostgreSQL delivers to every listener at commit.
 */
function watchStatements(client: pg.PoolClient, lookups: LookupCache, channel: string): void {
  const query = client.query.bind(client) as (text: unknown, values?: unknown) => Promise<pg.QueryResult>;
  let inTransaction = false;
  let changed = false;
  (client as { query: unknown }).query = async (text: unknown, values?: unknown[]) => {
    if (typeof text !== 'string') return query(text, values);
    // A batch's statements joined in one text (store/engine/round-trips.ts): it may begin and end the transaction, and
    // none of its statements writes a cached table.
    const joined = text.startsWith(JOINED);
    const command = (joined ? text.slice(JOINED.length, JOINED.length + 20) : text.slice(0, 20)).toLowerCase();
    // `begin` alone, or first in a batch's joined commands (store/engine/group-commit.ts).
    if (command.startsWith('begin') || command.startsWith('start transaction')) inTransaction = true;
    // The joined text's end, not a pattern run over the whole text (its held rows' values are most of it).
    const ending = joined ? text.endsWith('; commit') || text.endsWith('; rollback') : command === 'commit' || command === 'rollback';
    const writes = !joined && !ending && writesCachedTables(text);
    if (writes) lookups.invalidate();
    let result: pg.QueryResult;
    try {
      // The hot path's compiled queries run prepared (store/engine/prepared.ts); pg prepares each name once per connection.
      const name = preparedName(text);
      result = await (name ? query({ name, text, values }) : query(text, values));
      if (joined) {
        const each = Array.isArray(result) ? (result as pg.QueryResult[]) : [result];
        const answers = each.map(({ rows, command, rowCount }): JoinedAnswer => ({ rows: rows as unknown[], command, rowCount }));
        result = { ...each[each.length - 1]!, rows: answers };
      }
      if (writes) {
        await query('select pg_notify($1, $2)', [channel, '']);
        if (inTransaction) changed = true;
        else lookups.invalidate();
      }
    } catch (error) {
      // Anything but a failed statement (PostgreSQL's FATAL when it ends the connection, a lost socket) leaves the
      // connection unusable: ended now, so that the pool drops it when it is released. The statement's error can
      // arrive before the socket's end, and the pool hands out its last released connection first.
      if (!statementRefused(error)) void client.end().catch(() => undefined);
      throw error;
    } finally {
      if (ending) {
        inTransaction = false;
        if (changed) lookups.invalidate();
        changed = false;
      }
    }
    return result;
  };
}

/**
 * `LISTEN` on a connection of its own; a notification empties the cache. When the connection fails it is opened
 * again after a second; meanwhile the entries' age limit still bounds staleness (store/engine/lookup-cache.ts).
 */
function listenForChanges(connectionString: string, channel: string, lookups: LookupCache): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new (pgDriver().Client)({ connectionString });
    client = next;
    next.on('notification', () => lookups.invalidate());
    next.on('error', () => {
      // A change may have been missed while the connection was down.
      lookups.invalidate();
      void next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect(), 1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN "${channel}"`);
      lookups.invalidate();
    } catch {
      void next.end().catch(() => undefined);
      if (!closed && client === next) retry = setTimeout(() => void connect(), 1000);
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
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
  'processor_connect_states',
  'chain_runs',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
  'audit_log',
  'payouts',
  'membership_invitations',
  'risk_events',
];

async function wipeAll(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of tables) await trx.deleteFrom(table).execute();
  });
}
