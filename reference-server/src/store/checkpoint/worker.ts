import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

/**
 * The SQLite file store's checkpointer, a worker thread of the server (./start.ts): copies committed WAL frames
 * into the database file with a connection of its own, every `intervalMs`, so that the request thread never does.
 * `PASSIVE` waits for nobody: it copies what no reader still needs and leaves the rest for the next round.
 */
const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new SqliteDatabase(file);
db.pragma('busy_timeout = 5000');
// A checkpoint streams pages from the WAL to the file: it needs no page cache of its own.
db.pragma('cache_size = -128');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');

const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch {
    // The file busy or going away: the next round tries again, and closing the last connection checkpoints anyway.
  }
}, intervalMs);

parentPort?.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
