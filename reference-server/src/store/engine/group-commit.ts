import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { Batch, enter, readInAdvance, type Db, type IdSource, type ReadInAdvance, type Tx } from './batch';
import { DeferredInserts, type Placeholders } from './deferred-inserts';
import { MetricDeltas } from './metrics';
import { statementRefused } from './round-trips';
import { OTHER } from './statement';

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

const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * The commands around the requests of a batch. Joined (PostgreSQL), `begin` and the first request's savepoint go
 * in one text, and the command that ends one request's savepoint also opens the next one's:
 * one round trip instead of several, each about 100 µs there (BENCHMARKS.md). The simple query protocol takes
 * several statements in one text when it carries no parameters, as these do not. SQLite prepares one statement at
 * a time, and its commands cost no round trip.
 */
export class BatchSteps {
  /** Opens a batch run request by request (the first request's savepoint included). */
  readonly start: CompiledQuery[];
  /** Opens a combined batch: no savepoints (one statement each: on PostgreSQL they are deferred, store/engine/round-trips.ts). */
  readonly startCombined: CompiledQuery[];
  private readonly next: Record<'ok' | 'failed', CompiledQuery[]>;
  private readonly last: Record<'ok' | 'failed', CompiledQuery[]>;

  constructor(joined: boolean) {
    const { open, release, rollback } = savepoint.request;
    const first = [CompiledQuery.raw('begin')];
    this.last = { ok: [release], failed: [rollback, release] };
    const raw = (...statements: CompiledQuery[]) => CompiledQuery.raw(statements.map((q) => q.sql).join('; '));
    if (joined) {
      this.start = [raw(...first, open)];
      this.startCombined = first;
      this.next = { ok: [raw(release, open)], failed: [raw(rollback, release, open)] };
    } else {
      this.start = [...first, open];
      this.startCombined = first;
      this.next = { ok: [release, open], failed: [rollback, release, open] };
    }
  }

  /** After a request, by how it ended and whether another follows in the batch. */
  after(ok: boolean, more: boolean): CompiledQuery[] {
    return (more ? this.next : this.last)[ok ? 'ok' : 'failed'];
  }
}

/** One batch running (run again request by request after a failure, in the same lane): the metric shard it writes. */
interface Lane {
  readonly shard: number;
}

interface Job {
  work: (tx: Tx) => Promise<unknown>;
  /** What the request asks a combined batch to read for it in advance (`BatchRead`, store/engine/batch.ts). */
  reads: ReadInAdvance[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
  done?: { ok: true; value: unknown } | { ok: false; error: unknown };
  /** How many batches ran it (a lock conflict on PostgreSQL runs it again). */
  attempts: number;
}

/**
 * PostgreSQL: a batch starts beside one flushing its COMMIT at once when this many requests wait, else after this
 * long (or when the COMMIT returns). Measured on 2 cores, 50 connections: 12 took the click from 83–97 to 76–80 µs of
 * CPU per request, the lead from 160 to 128 and the sale from 166–174 to 133 (docs/performance-notes.md).
 */
const BESIDE_A_COMMIT = { requests: 12, afterMs: 5 };

/**
 * Group commit (BENCHMARKS.md, "Group commit"): a tracking request hands its writes to a writer, which runs every
 * request queued by the next turn of the event loop (at most `maxBatch`) back to back inside one `BEGIN … COMMIT`:
 * first combined (`runCombined`: no savepoint each, plain inserts held for multi-row inserts), and when a request
 * of it fails, apart (`runApart`: each behind its own `SAVEPOINT`). A request that fails rolls back alone either way
 * (its writes vanish, the others' stay); every request's promise settles only after the `COMMIT` holding it
 * returned, so nothing is answered before it is durable, and a failed `COMMIT` fails every request of the batch
 * (none is stored). The writes of one request commit together (a sale with its commission and outbox rows:
 * crash.test.ts). Each COMMIT flushes the pages (SQLite) or WAL records (PostgreSQL) of a batch once, instead of
 * once per request. The requests' metric changes are summed and written once, last in the batch (`MetricDeltas`,
 * store/engine/metrics.ts), in a fixed order.
 *
 * One batch runs its requests at a time per server. On SQLite that is all: the next starts after its COMMIT. On
 * PostgreSQL each batch runs on one pooled connection, and once a batch has sent its COMMIT the next one starts while
 * PostgreSQL flushes it (at most `shards.length` batches at once, and only once enough requests wait for it to be worth
 * a batch: `BESIDE_A_COMMIT`): the server would otherwise sit idle for that flush. Batches of one server and of the
 * servers sharing a database run side by side with no lock between them: what a batch writes cannot depend on another
 * batch being absent. A sale's transaction id is unique by constraint, a conversion read in advance is checked again
 * when written (store/customers.ts), and a lead's change to its customer is conditional on the customer as read. The
 * metric upserts come last in every batch, each a statement of its own, sorted (store/engine/metrics.ts), into the rows
 * of the batch's own shard, which no batch running beside it writes (`metricShards` in store/engine/metrics.ts):
 * batches never wait for each other's flush on a program's counters. They can still wait for each other (or for a
 * transaction outside the group commit, a refund, the dashboard) on rows their requests touch in request order, a
 * customer two servers' leads change at once; when PostgreSQL breaks such a deadlock (or a serialization failure) by
 * failing a statement of the batch, a combined batch runs again request by request, and there only the failing request
 * rolls back to its savepoint and runs again in the next batch (at most `maxAttempts` times), never answered in
 * between.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  /** The batch running its requests (it has not sent its COMMIT yet): the next one waits for it. */
  private opening: Lane | undefined;
  /** The metric shards no running batch holds: one per batch that may run at once. */
  private readonly free: number[];
  /** Combined batches while they pass; after one fails, request by request until a batch has no failure. */
  private combine = true;
  /** How many batches may run at once (PostgreSQL: one per metric shard of this writer). */
  private readonly lanes: number;
  /** Starts a batch beside one that is committing, when too few requests waited to start it at once. */
  private besideTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly steps: BatchSteps,
    private readonly placeholders: Placeholders,
    /** Each batch's source of new sales' and commissions' ids (store/engine/batch.ts). */
    private readonly ids: () => IdSource,
    /** The metric shards of this writer's batches (`metricShards` in store/engine/metrics.ts), as many as batches may run at once. */
    shards: readonly number[],
    private readonly maxBatch = 256,
    private readonly maxAttempts = 5,
  ) {
    this.free = [...shards].reverse();
    this.lanes = shards.length;
  }

  /** PostgreSQL (numbered parameters): a combined batch's statements share round trips (store/engine/round-trips.ts). */
  private get joined(): boolean {
    return this.placeholders === 'numbered';
  }

  run<T>(work: (tx: Tx) => Promise<T>, reads: ReadInAdvance[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, reads, resolve: (value) => resolve(value as T), reject, attempts: 0 });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.opening || this.free.length === 0 || this.queue.length === 0) return;
    if (this.free.length < this.lanes && this.queue.length < BESIDE_A_COMMIT.requests) {
      // A batch is flushing its COMMIT and few requests wait: they join the requests arriving until it returns, as
      // one batch. Its fixed cost (round trips, parsing, the commit) per request is what two small batches lost
      // (docs/performance-notes.md, "A second batch only when it is worth one"). A COMMIT that waits on a lock
      // holds them no longer than the timer.
      this.besideTimer ??= setTimeout(() => {
        this.besideTimer = undefined;
        this.start();
      }, BESIDE_A_COMMIT.afterMs);
      return;
    }
    this.start();
  }

  private start(): void {
    if (this.scheduled || this.opening || this.free.length === 0 || this.queue.length === 0) return;
    clearTimeout(this.besideTimer);
    this.besideTimer = undefined;
    this.scheduled = true;
    // The next turn: requests whose bodies arrived in this one have queued their writes by then.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const shard = this.free.pop();
    if (shard === undefined) return;
    const jobs = this.queue.splice(0, this.maxBatch);
    if (jobs.length === 0) {
      this.free.push(shard);
      return;
    }
    const lane: Lane = { shard };
    this.opening = lane;
    try {
      const combined = this.combine ? await this.runCombined(jobs, lane) : { settled: false as const, failed: undefined };
      if (!combined.settled) {
        const failed = combined.failed;
        const rest = failed ? jobs.filter((job) => job !== failed.job) : jobs;
        if (rest.length > 0) await this.runApart(rest, lane);
        // After the others' COMMIT, as `runApart` would have answered it: its caller may read what they wrote (a
        // duplicate sale's 409 names the sale that won).
        if (failed) this.settleFailed(failed.job, failed.error);
      }
    } finally {
      if (this.opening === lane) this.opening = undefined;
      this.free.push(shard);
      this.schedule();
    }
  }

  /** `lane`'s batch sent its COMMIT: the next batch may start (when a shard is free). */
  private committing(lane: Lane): void {
    if (this.opening === lane) this.opening = undefined;
    this.schedule();
  }

  /**
   * Combined batches (BENCHMARKS.md, "Combined batches"): every request of the batch runs in one transaction with
   * no savepoint of its own, its plain inserts held back and written per table as multi-row inserts
   * (store/engine/deferred-inserts.ts), the metric sums last (on PostgreSQL held too, so that they share the rows'
   * statements). Before the first request, the batch reads what its requests asked it to read in advance
   * (`BatchRead`, store/engine/batch.ts). `settled` when every request is settled here.
   *
   * When a request throws, the transaction rolls back whole and nothing of it is stored. A request that held no
   * rows is settled with its error once the others went through `runApart`, as `runApart` would have settled it (it
   * saw the same rows: the requests before it, in order); a lock conflict runs it again in the next batch instead.
   * When the failing request had held rows (one of them might have failed first, had it been written at once) or
   * writing held rows failed (nobody can say whose row it was), every request goes through `runApart`. A failed
   * COMMIT fails them all, as there: its outcome is not retried.
   */
  private async runCombined(
    jobs: Job[],
    lane: Lane,
  ): Promise<{ settled: true } | { settled: false; failed: { job: Job; error: unknown } | undefined }> {
    const values: unknown[] = [];
    const held = new DeferredInserts(this.placeholders);
    let failing: { job: Job; error: unknown } | undefined;
    let committing = false;
    try {
      await this.transaction(lane, this.steps.startCombined, this.joined, async (trx) => {
        const batch = trx.batch;
        batch.held = held;
        await readInAdvance(
          trx,
          jobs.flatMap((job) => job.reads),
        );
        const metrics = new MetricDeltas();
        batch.metrics = metrics;
        try {
          for (const job of jobs) {
            const heldBefore = held.added;
            try {
              values.push(await job.work(trx));
            } catch (error) {
              // A request that held rows might have failed on one of them first, had they been written at once.
              if (held.added === heldBefore) failing = { job, error };
              throw error;
            }
          }
        } finally {
          batch.metrics = undefined;
        }
        // The metrics' upserts are held too (PostgreSQL): they share the held rows' statements.
        if (this.joined) held.holdAll = true;
        await metrics.write(trx, lane.shard);
        // PostgreSQL: the held rows go with the `commit`, in its round trip (store/engine/round-trips.ts).
        await batch.writeHeld(this.joined);
        committing = true;
      });
    } catch (error) {
      // A joined `commit` that PostgreSQL refused for one of its statements stored nothing: as when writing held rows
      // fails, nobody can say whose row it was. Any other failed COMMIT may have stored them: never run again.
      const heldFailed = held.failed || (committing && this.joined && statementRefused(error));
      if (committing && !heldFailed) {
        for (const job of jobs) job.reject(error);
        return { settled: true };
      }
      this.combine = false;
      return { settled: false, failed: heldFailed ? undefined : failing };
    }
    jobs.forEach((job, index) => job.resolve(values[index]));
    return { settled: true };
  }

  /** A request that failed in a combined batch: its error, or (a lock conflict) another run in the next batch. */
  private settleFailed(job: Job, error: unknown): void {
    job.attempts++;
    if (isLockConflict(error) && job.attempts < this.maxAttempts) {
      this.queue.unshift(job);
    } else job.reject(error);
  }

  /** Request by request, each behind its own savepoint (the class comment). */
  private async runApart(jobs: Job[], lane: Lane): Promise<void> {
    const again: Job[] = [];
    try {
      await this.transaction(lane, this.steps.start, false, async (trx) => {
        const metrics = new MetricDeltas();
        for (const [index, job] of jobs.entries()) {
          const own = new MetricDeltas();
          trx.batch.metrics = own;
          job.attempts++;
          job.done = undefined;
          try {
            job.done = { ok: true, value: await job.work(trx) };
          } catch (error) {
            job.done = { ok: false, error };
            if (isLockConflict(error) && job.attempts < this.maxAttempts) again.push(job);
          } finally {
            trx.batch.metrics = undefined;
          }
          // Released, or rolled back to its savepoint (its writes gone); the next request's savepoint opened.
          for (const command of this.steps.after(job.done.ok, index < jobs.length - 1)) await trx.batch.execute(command, OTHER);
          if (job.done.ok) metrics.merge(own);
        }
        // The batch's metric changes, summed, in its transaction: they commit with the requests or not at all.
        await metrics.write(trx, lane.shard);
      });
      for (const job of jobs) {
        if (again.includes(job)) continue;
        if (job.done?.ok) job.resolve(job.done.value);
        else job.reject(job.done?.error);
      }
      // First in line for the next batch: their writes were rolled back, nothing of them is stored.
      this.queue.unshift(...again);
      // A batch without a failure: the next ones are combined again.
      this.combine = jobs.every((job) => job.done?.ok);
    } catch (error) {
      // BEGIN, a savepoint command, the metrics write or COMMIT failed: the whole batch rolled back, so no request of it
      // is stored.
      for (const job of jobs) job.reject(job.done && !job.done.ok ? job.done.error : error);
    }
  }

  /**
   * `body` in a transaction on one connection of the store, opened by `start` (which begins it: one round trip with
   * the batch's first commands on PostgreSQL; `deferStart`: sent with the batch's first statement that is waited
   * for, store/engine/round-trips.ts), committed after it, rolled back when it or the COMMIT fails.
   */
  private async transaction(lane: Lane, start: CompiledQuery[], deferStart: boolean, body: (tx: Tx) => Promise<void>): Promise<void> {
    await this.db.connection().execute(async (trx) => {
      const connection = await trx.getExecutor().provideConnection(async (held) => held);
      const batch = new Batch(this.db, connection, this.ids(), this.joined);
      const { tx, release } = enter(trx, batch);
      try {
        for (const command of start) {
          if (deferStart) batch.defer(command);
          else await batch.execute(command, OTHER);
        }
        await body(tx);
        const commit = batch.execute(COMMIT, OTHER);
        this.committing(lane);
        await commit;
      } catch (error) {
        batch.discard();
        await batch.execute(ROLLBACK, OTHER).catch(() => undefined);
        throw error;
      } finally {
        release();
      }
    });
  }
}

/** PostgreSQL's `deadlock_detected` and `serialization_failure`: the statement lost a lock race and may run again. */
function isLockConflict(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
}

/**
 * Runs `work` in a transaction of the store's group commit and resolves after its COMMIT (store/db.ts attaches one
 * to both stores: store/engine/store-engine.ts); its metric changes are written last, from memory, so they never fail
 * halfway through a request. `work` must use `tx` only: the store's connection is the batch's until COMMIT.
 * `reads`: what a combined batch reads for it in advance, with the other requests' (`BatchRead`, store/engine/batch.ts).
 */
export function writeTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, reads: ReadInAdvance[] = []): Promise<T> {
  const writer = db.engine?.writer;
  if (!writer) throw new Error('writeTransaction needs a store opened by openStore (store/db.ts)');
  return writer.run(work, reads);
}

/**
 * Runs `work` behind a savepoint of `tx`: its writes are kept when it returns, rolled back (and the savepoint gone)
 * when it throws, and the error is handed back to the caller: `{ ok: false, error }`. The transaction goes on.
 *
 * In a combined batch (`GroupCommit.runCombined`) no savepoint is opened: it would cost two statements, and on
 * PostgreSQL two round trips plus the write of every held row, for a step that almost never fails. When `work`
 * throws before writing anything there is nothing to roll back, and the error is handed back as above. When it
 * throws after writing, the error goes on up: it fails the combined batch, which runs again request by request,
 * each behind its own savepoint, where this function opens a real one.
 */
export async function behindSavepoint<T>(
  tx: Tx,
  name: 'commission',
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  const held = tx.batch.held;
  if (held) {
    const writes = held.added + held.direct;
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      if (held.added + held.direct !== writes) throw error;
      return { ok: false, error };
    }
  }
  const commands = savepoint[name];
  await tx.batch.execute(commands.open, OTHER);
  try {
    const value = await work();
    await tx.batch.execute(commands.release, OTHER);
    return { ok: true, value };
  } catch (error) {
    await tx.batch.execute(commands.rollback, OTHER);
    await tx.batch.execute(commands.release, OTHER);
    return { ok: false, error };
  }
}
