import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrate, migrationsFor } from '../src/store/migrate';
import type { Database } from '../src/store/schema';

/** What a fresh SQLite database holds after every migration, as src/store/fresh-sqlite-schema.ts records it. */
export interface SqliteSchema {
  /** The migrations it is the result of, in order. */
  migrations: string[];
  /** The statements that make it in an empty database. */
  statements: string[];
}

// Kysely's record of which migration ran when: written at open with that moment, like a migration's own row.
const migrationTable = 'kysely_migration';
// Tables, then indexes, then the rest, each kind in the order it was created: every statement finds what it names.
const kindOrder = `case type when 'table' then 0 when 'index' then 1 else 2 end`;

/**
 * The statements that recreate `sqlite`'s schema and rows in an empty database (bar Kysely's migration record): each
 * object as SQLite stores its text (`sqlite_master`), then every row, `sqlite_sequence`'s counters included. Objects
 * SQLite makes by itself (automatic indexes, `sqlite_sequence`) have no text and come with the statements that make
 * them.
 */
export function dumpSqlite(sqlite: SqliteDatabase.Database): string[] {
  const objects = sqlite
    .prepare(`select sql from sqlite_master where sql is not null and name not like 'sqlite_%' order by ${kindOrder}, rowid`)
    .pluck()
    .all() as string[];
  const tables = sqlite.prepare(`select name from sqlite_master where type = 'table' order by rowid`).pluck().all() as string[];
  const rows: string[] = [];
  for (const table of tables) {
    if (table === migrationTable) continue;
    for (const row of sqlite.prepare(`select * from "${table}" order by rowid`).all() as Record<string, unknown>[]) {
      const columns = Object.keys(row).map((c) => `"${c}"`);
      rows.push(`INSERT INTO "${table}" (${columns.join(', ')}) VALUES (${Object.values(row).map(literal).join(', ')})`);
    }
  }
  return [...objects, ...rows];
}

function literal(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`;
  throw new Error(`no SQL literal for ${typeof value}`);
}

/** An empty in-memory database brought to the latest schema by running every migration, as an old one is. */
export async function migratedSqlite(): Promise<SqliteDatabase.Database> {
  const sqlite = new SqliteDatabase(':memory:');
  // Kysely closes its database when destroyed; this one stays open for the caller, who closes it.
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: { prepare: (text) => sqlite.prepare(text), close: () => undefined } }),
  });
  await migrate(db, 'sqlite');
  await db.destroy();
  return sqlite;
}

/** Runs every migration on an empty in-memory database and records the result. */
export async function schemaFromMigrations(): Promise<SqliteSchema> {
  const sqlite = await migratedSqlite();
  try {
    return { migrations: Object.keys(migrationsFor('sqlite')), statements: dumpSqlite(sqlite) };
  } finally {
    sqlite.close();
  }
}
