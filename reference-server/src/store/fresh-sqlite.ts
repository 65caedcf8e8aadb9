import type SqliteDatabase from 'better-sqlite3';
import { migrations, statements } from './fresh-sqlite-schema';

/**
 * Gives an empty SQLite database the latest schema in one go, as recorded from the migrations by `pnpm generate`
 * (fresh-sqlite-schema.ts), with Kysely's record of each migration, so a later open migrates it as usual. Replaying
 * the migrations one by one took a fifth of a start (docs/performance-notes.md, "Start-up, second pass"): SQLite
 * re-reads the whole schema after each change. Returns false, changing nothing, when the database holds anything or
 * the record is not of exactly `names` (a migration added without `pnpm generate`): the migrations then run as before.
 */
export function createFreshSchema(sqlite: SqliteDatabase.Database, names: readonly string[], now: Date): boolean {
  if (names.length !== migrations.length || names.some((name, i) => name !== migrations[i])) return false;
  // Immediate: a second process opening the same new file waits, then finds it made and migrates as usual.
  return sqlite
    .transaction(() => {
      if (sqlite.prepare('select 1 from sqlite_master limit 1').get() !== undefined) return false;
      for (const statement of statements) sqlite.exec(statement);
      const record = sqlite.prepare('insert into kysely_migration (name, timestamp) values (?, ?)');
      for (const name of names) record.run(name, now.toISOString());
      return true;
    })
    .immediate();
}
