import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { uniqueSchemaName } from '../db';
import { migrationsFor } from '../migrate';
import { pgDriver } from '../pg-driver';

/**
 * For the migrations' tests: an empty database of the test's own (a fresh schema on PostgreSQL when `DATABASE_URL`
 * names one, else SQLite in memory) and a migrator over the real migrations, which the test takes to any of them to
 * write rows as that migration found them. `close` drops it.
 */
export async function migratingDatabase(name: string): Promise<{ db: Kysely<unknown>; migrator: Migrator; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
  let db: Kysely<unknown>;
  let close: () => Promise<void>;
  let schema: string | undefined;
  if (url) {
    schema = uniqueSchemaName(name);
    const pool = new (pgDriver().Pool)({ connectionString: url, max: 2, options: `-c search_path="${schema}"` });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    close = async () => {
      await sql.raw(`DROP SCHEMA "${schema}" CASCADE`).execute(db);
      await db.destroy();
    };
  } else {
    db = new Kysely({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    close = () => db.destroy();
  }
  const migrations = migrationsFor(url ? 'postgres' : 'sqlite');
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  return { db, migrator, close };
}
