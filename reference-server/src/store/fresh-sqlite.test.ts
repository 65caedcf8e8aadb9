import SqliteDatabase from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dumpSqlite, migratedSqlite, schemaFromMigrations } from '../../scripts/sqlite-schema-dump';
import { openStore } from './db';
import { createFreshSchema } from './fresh-sqlite';
import { migrations, statements } from './fresh-sqlite-schema';
import { migrationsFor } from './migrate';

// A new SQLite database is given the migrations' result in one go (fresh-sqlite.ts); the migrations stay the source of
// truth, and these check that what it makes is what they make.
const names = Object.keys(migrationsFor('sqlite'));
const dir = mkdtempSync(join(tmpdir(), 'svc-fresh-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything a database is, but when its migrations ran: its objects as SQLite stores them, every row, its pragmas. */
function contents(sqlite: SqliteDatabase.Database) {
  const objects = sqlite.prepare('select type, name, tbl_name, sql from sqlite_master order by type, name').all();
  const tables = sqlite.prepare(`select name from sqlite_master where type = 'table' order by name`).pluck().all() as string[];
  const rows = Object.fromEntries(
    tables.map((table) => [table, sqlite.prepare(`select * from "${table}" order by rowid`).all() as Record<string, unknown>[]]),
  );
  const ran = rows.kysely_migration!.map((row) => ({ ...row, timestamp: typeof row.timestamp }));
  const pragmas = ['user_version', 'application_id', 'auto_vacuum', 'foreign_keys'].map((name) => sqlite.pragma(name));
  return { objects, rows: { ...rows, kysely_migration: ran }, pragmas };
}

describe('a fresh SQLite database', () => {
  it('is recorded from the migrations as they are now (else run pnpm generate)', async () => {
    expect({ migrations, statements }).toEqual(await schemaFromMigrations());
  });

  it('given the recorded schema, is the database the migrations make, row for row', async () => {
    const migrated = await migratedSqlite();
    const fresh = new SqliteDatabase(':memory:');
    expect(createFreshSchema(fresh, names, new Date())).toBe(true);
    expect(contents(fresh)).toEqual(contents(migrated));
    expect(fresh.pragma('integrity_check', { simple: true })).toBe('ok');
    // The dump of each is the same text, statement for statement.
    expect(dumpSqlite(fresh)).toEqual(dumpSqlite(migrated));
    fresh.close();
    migrated.close();
  });

  it('is left to the migrations when it holds anything, or the record is of other migrations', () => {
    const sqlite = new SqliteDatabase(':memory:');
    expect(createFreshSchema(sqlite, [...names, '0099_next'], new Date())).toBe(false);
    expect(createFreshSchema(sqlite, names.slice(1), new Date())).toBe(false);
    expect(sqlite.prepare('select count(*) from sqlite_master').pluck().get()).toBe(0);
    sqlite.exec('create table t (x)');
    expect(createFreshSchema(sqlite, names, new Date())).toBe(false);
    expect(sqlite.prepare('select name from sqlite_master').pluck().all()).toEqual(['t']);
    sqlite.close();
  });

  it('made so on a file, opens again through the migrations, which find every one of them run', async () => {
    const url = `sqlite:${join(dir, 'svc.sqlite')}`;
    const first = await openStore(url);
    const ranAt = await first.db
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .execute();
    await first.close();
    const again = await openStore(url);
    expect(
      await again.db
        .selectFrom('kysely_migration' as never)
        .selectAll()
        .execute(),
    ).toEqual(ranAt);
    expect(ranAt.map((row) => (row as { name: string }).name)).toEqual(names);
    await again.close();
  });
});
