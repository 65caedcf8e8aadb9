import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/** The savepoint commands, written once: they run several times per tracking request (no builder, no compile). */
const savepointCommands = (name: string) => ({
  open: CompiledQuery.raw(`savepoint ${name}`),
  release: CompiledQuery.raw(`release savepoint ${name}`),
  rollback: CompiledQuery.raw(`rollback to savepoint ${name}`),
});
const savepoint = {
  request: savepointCommands('svc_request'),
  commission: savepointCommands('commission'),
  metrics: savepointCommands('metrics'),
};

interface Job {
  work: (trx: Db) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  done?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

/**
 * Group commit for SQLite (BENCHMARKS.md, "Group commit"): a tracking request hands its writes to the one writer,
 * which runs every request queued by the next turn of the event loop (at most `maxBatch`) back to back inside one
 * `BEGIN … COMMIT`, each behind its own `SAVEPOINT`. A request that fails rolls back to its savepoint only (its
 * writes vanish, the others' stay); every request's promise settles only after the `COMMIT` holding it returned,
 * so nothing is answered before it is durable, and a failed `COMMIT` fails every request of the batch (none is
 * stored). better-sqlite3 is synchronous, so a batch is the queued write functions run one after another; the
 * writes of one request still commit together (a sale with its commission and outbox rows: crash.test.ts).
 * Each COMMIT appends the pages a batch touched to the WAL once, instead of once per request.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly maxBatch = 256,
  ) {}

  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: (value) => resolve(value as T), reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    // The next turn: requests whose bodies arrived in this one have queued their writes by then.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const jobs = this.queue.splice(0, this.maxBatch);
    if (jobs.length === 0) return;
    this.running = true;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const job of jobs) {
          await trx.executeQuery(savepoint.request.open);
          try {
            job.done = { ok: true, value: await job.work(trx) };
            await trx.executeQuery(savepoint.request.release);
          } catch (error) {
            job.done = { ok: false, error };
            await trx.executeQuery(savepoint.request.rollback);
            await trx.executeQuery(savepoint.request.release);
          }
        }
      });
      for (const job of jobs) {
        if (job.done?.ok) job.resolve(job.done.value);
        else job.reject(job.done?.error);
      }
    } catch (error) {
      // BEGIN, a savepoint command or COMMIT failed: the whole batch rolled back, so no request of it is stored.
      for (const job of jobs) job.reject(job.done && !job.done.ok ? job.done.error : error);
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}

const writers = new WeakMap<Db, GroupCommit>();

export function attachGroupCommit(db: Db): void {
  writers.set(db, new GroupCommit(db));
}

/**
 * Runs `work` in a transaction and resolves after it committed: through the store's group commit when it has
 * one (SQLite), else as its own transaction (PostgreSQL, where each request commits on its pooled connection).
 * `work` must use `trx` only: the store's connection is the batch's until COMMIT.
 */
export function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  const writer = writers.get(db);
  return writer ? writer.run(work) : db.transaction().execute(work);
}

/**
 * Runs `work` behind a savepoint of `trx`: its writes are kept when it returns, rolled back (and the savepoint gone)
 * when it throws, and the error is handed back to the caller: `{ ok: false, error }`. The transaction goes on.
 */
export async function behindSavepoint<T>(
  trx: Db,
  name: 'commission' | 'metrics',
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  const commands = savepoint[name];
  await trx.executeQuery(commands.open);
  try {
    const value = await work();
    await trx.executeQuery(commands.release);
    return { ok: true, value };
  } catch (error) {
    await trx.executeQuery(commands.rollback);
    await trx.executeQuery(commands.release);
    return { ok: false, error };
  }
}
