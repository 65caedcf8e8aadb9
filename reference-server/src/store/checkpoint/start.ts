import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/**
 * Where the checkpointer's built worker is: beside the bundle that holds this code (dist/server.js, dist/index.js;
 * tsup.config.ts builds it as its own entry). Running from source (tests through Vitest) there is none.
 */
const builtWorker = new URL('./sqlite-checkpointer.js', import.meta.url);

const INTERVAL_MS = 200;

/**
 * Moves the WAL checkpoints of a SQLite file store off the request thread (BENCHMARKS.md, "The hot path, fourth pass",
 * item 7). By default SQLite checkpoints inside the COMMIT that takes the WAL past 1,000 pages: about
 * 15 ms of copying and syncing every few dozen batches, which every request in flight waited for (the p99), on the
 * one thread that serves them. Here the request connection never checkpoints, and a worker thread with its own
 * connection does every `INTERVAL_MS`. Durability is the same: a COMMIT is in the WAL when it returns, whoever
 * copies it on later. Without the built worker (running from source) SQLite checkpoints as by default.
 *
 * Answers the function that stops the worker, to be awaited before the request connection closes (closing the
 * last connection checkpoints what is left).
 */
export function startCheckpointer(sqlite: SqliteDatabase.Database, file: string, workerFile = builtWorker): () => Promise<void> {
  if (!existsSync(workerFile)) return async () => undefined;
  const worker = new Worker(workerFile, {
    workerData: { file, intervalMs: INTERVAL_MS },
    // It holds one prepared statement and a timer: a small heap keeps the server's memory where it was without it.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  // Never keeps the process alive by itself: a server that stops without closing its store still exits.
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  // A worker that fails to start or dies: the request connection checkpoints again, as SQLite does by default.
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
      resolve();
    }),
  );
  return async () => {
    stopping = true;
    // Held again while it closes: awaited with nothing else to do, an unreferenced worker would let the process end
    // first, its closing never answered.
    worker.ref();
    worker.postMessage('close');
    await exited;
  };
}
