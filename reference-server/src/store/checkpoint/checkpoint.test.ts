import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './start';

// The worker as built (`pnpm build`, tsup.config.ts): a worker thread runs JavaScript, not the TypeScript source.
const builtWorker = new URL('../../../dist/sqlite-checkpointer.js', import.meta.url);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** How many rows the database file itself holds, without its WAL: what checkpoints have copied into it. */
function rowsInFileAlone(file: string, dir: string): number {
  const copy = join(dir, 'copy.db');
  copyFileSync(file, copy);
  const db = new SqliteDatabase(copy, { readonly: true });
  try {
    return (db.prepare('select count(*) as n from t').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A new SQLite file in WAL mode, in a directory removed after the test. */
function walFile() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));
  dirs.push(dir);
  const file = join(dir, 'store.db');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  return { dir, file, sqlite };
}

describe('the SQLite checkpointer', () => {
  it('copies committed transactions into the database file from its own thread, the request connection never checkpointing', async () => {
    const { dir, file, sqlite } = walFile();
    sqlite.exec('create table t (id integer primary key, v text)');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const stop = startCheckpointer(sqlite, file, builtWorker);
    try {
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const insert = sqlite.prepare('insert into t (v) values (?)');
      // Well past SQLite's own threshold (1,000 pages): the request connection would have checkpointed by now.
      for (let batch = 0; batch < 50; batch++)
        sqlite.transaction(() => {
          for (let n = 0; n < 100; n++) insert.run('x'.repeat(500));
        })();
      await expect.poll(() => rowsInFileAlone(file, dir), { timeout: 5_000, interval: 100 }).toBe(5_000);
    } finally {
      await stop();
      sqlite.close();
    }
  });

  it('without the built worker, leaves checkpoints to SQLite as by default', async () => {
    const { file, sqlite } = walFile();
    const stop = startCheckpointer(sqlite, file, new URL('./none.js', builtWorker));
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await stop();
    sqlite.close();
  });
});
