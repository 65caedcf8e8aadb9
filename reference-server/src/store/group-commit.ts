import { CompiledQuery, type Kysely } from 'kysely';
import { collectMetrics, MetricDeltas } from './metrics';
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
};

/**
 * The commands around the requests of a batch. Joined (PostgreSQL), the command that ends one request's savepoint
 * also opens the next one's, and the opening command opens the first: one round trip instead of two, each about
 * 100 µs there (BENCHMARKS.md). The simple query protocol takes several statements in one text when it carries no
 * parameters, as these do not. SQLite prepares one statement at a time, and its commands cost no round trip.
 */
class BatchSteps {
  readonly start: CompiledQuery[];
  private readonly next: Record<'ok' | 'failed', CompiledQuery[]>;
  private readonly last: Record<'ok' | 'failed', CompiledQuery[]>;

  constructor(opening: string | undefined, joined: boolean) {
    const { open, release, rollback } = savepoint.request;
    this.last = { ok: [release], failed: [rollback, release] };
    const raw = (...statements: CompiledQuery[]) => CompiledQuery.raw(statements.map((q) => q.sql).join('; '));
    if (joined) {
      this.start = [opening ? raw(CompiledQuery.raw(opening), open) : open];
      this.next = { ok: [raw(release, open)], failed: [raw(rollback, release, open)] };
    } else {
      this.start = opening ? [CompiledQuery.raw(opening), open] : [open];
      this.next = { ok: [release, open], failed: [rollback, release, open] };
    }
  }

  /** After a request, by how it ended and whether another follows in the batch. */
  after(ok: boolean, more: boolean): CompiledQuery[] {
    return (more ? this.next : this.last)[ok ? 'ok' : 'failed'];
  }
}

interface Job {
  work: (trx: Db) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  done?: { ok: true; value: unknown } | { ok: false; error: unknown };
  /** How many batches ran it (a lock conflict on PostgreSQL runs it again). */
  attempts: number;
}

/**
 * Group commit (BENCHMARKS.md, "Group commit"): a tracking request hands its writes to a writer, which runs every
 * request queued by the next turn of the event loop (at most `maxBatch`) back to back inside one `BEGIN … COMMIT`,
 * each behind its own `SAVEPOINT`. A request that fails rolls back to its savepoint only (its writes vanish, the
 * others' stay); every request's promise settles only after the `COMMIT` holding it returned, so nothing is answered
 * before it is durable, and a failed `COMMIT` fails every request of the batch (none is stored). The writes of one
 * request commit together (a sale with its commission and outbox rows: crash.test.ts). Each COMMIT flushes the
 * pages (SQLite) or WAL records (PostgreSQL) of a batch once, instead of once per request. The requests' metric
 * changes are summed and written once, last in the batch (`MetricDeltas`, store/metrics.ts), in a fixed order.
 *
 * One batch runs at a time. On PostgreSQL it runs on one pooled connection, and `opening` (an advisory lock on the
 * schema, held to the end of the transaction) makes the servers sharing a database take turns batch by batch: two
 * batches interleaving would hold many requests' rows each and could wait for each other. (Four batches at once per
 * server were measured no faster on this machine: BENCHMARKS.md.) A batch can still meet a transaction outside the
 * group commit (a refund, the dashboard); when PostgreSQL breaks a deadlock (or a serialization failure) by failing
 * a statement of the batch, only that request rolls back to its savepoint, and it runs again in the next batch (at
 * most `maxAttempts` times), never answered in between.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly steps: BatchSteps,
    private readonly maxBatch = 256,
    private readonly maxAttempts = 5,
  ) {}

  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: (value) => resolve(value as T), reject, attempts: 0 });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.queue.length === 0) return;
    this.scheduled = true;
    // The next turn: requests whose bodies arrived in this one have queued their writes by then.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const jobs = this.queue.splice(0, this.maxBatch);
    if (jobs.length === 0) return;
    this.running = true;
    const again: Job[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const command of this.steps.start) await trx.executeQuery(command);
        const metrics = new MetricDeltas();
        for (const [index, job] of jobs.entries()) {
          const own = new MetricDeltas();
          collectMetrics(trx, own);
          job.attempts++;
          job.done = undefined;
          try {
            job.done = { ok: true, value: await job.work(trx) };
          } catch (error) {
            job.done = { ok: false, error };
            if (isLockConflict(error) && job.attempts < this.maxAttempts) again.push(job);
          } finally {
            collectMetrics(trx, undefined);
          }
          // Released, or rolled back to its savepoint (its writes gone); the next request's savepoint opened.
          for (const command of this.steps.after(job.done.ok, index < jobs.length - 1)) await trx.executeQuery(command);
          if (job.done.ok) metrics.merge(own);
        }
        // The batch's metric changes, summed, in its transaction: they commit with the requests or not at all.
        await metrics.write(trx);
      });
      for (const job of jobs) {
        if (again.includes(job)) continue;
        if (job.done?.ok) job.resolve(job.done.value);
        else job.reject(job.done?.error);
      }
      // First in line for the next batch: their writes were rolled back, nothing of them is stored.
      this.queue.unshift(...again);
    } catch (error) {
      // BEGIN, a savepoint command, the metrics write or COMMIT failed: the whole batch rolled back, so no request of it
      // is stored.
      for (const job of jobs) job.reject(job.done && !job.done.ok ? job.done.error : error);
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}

/** PostgreSQL's `deadlock_detected` and `serialization_failure`: the statement lost a lock race and may run again. */
function isLockConflict(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
}

const writers = new WeakMap<Db, GroupCommit>();

/**
 * `opening`: a statement run first in every batch's transaction (PostgreSQL: the advisory lock); `joined`: the
 * savepoint commands share round trips (PostgreSQL only, `BatchSteps`).
 */
export function attachGroupCommit(db: Db, options: { opening?: string; joined?: boolean } = {}): void {
  writers.set(db, new GroupCommit(db, new BatchSteps(options.opening, options.joined ?? false)));
}

/**
 * Runs `work` in a transaction of the store's group commit and resolves after its COMMIT (both stores attach one in
 * `store/db.ts`); its metric changes are written last, from memory, so they never fail halfway through a request.
 * `work` must use `trx` only: the store's connection is the batch's until COMMIT.
 */
export function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  const writer = writers.get(db);
  if (!writer) throw new Error('writeTransaction needs a store opened by openStore (store/db.ts)');
  return writer.run(work);
}

/**
 * Runs `work` behind a savepoint of `trx`: its writes are kept when it returns, rolled back (and the savepoint gone)
 * when it throws, and the error is handed back to the caller: `{ ok: false, error }`. The transaction goes on.
 */
export async function behindSavepoint<T>(
  trx: Db,
  name: 'commission',
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
