import { CompiledQuery, type DatabaseConnection, type Kysely, type QueryResult } from 'kysely';
import type { Dialect } from '../db';
import type { Database } from '../schema';
import type { DeferredInserts } from './deferred-inserts';
import type { MetricDeltas } from './metrics';
import { RoundTrips } from './round-trips';
import { READ, statementOf, type Statement } from './statement';
import type { StoreEngine } from './store-engine';

type Execute = (query: CompiledQuery) => Promise<QueryResult<unknown>>;

/**
 * One group-commit batch (store/engine/group-commit.ts) and everything it holds while its requests run: the one
 * connection its transaction runs on, where it takes new ids, the rows it holds back (a combined batch), the metric
 * changes of the request running, the answers it read in advance, and on PostgreSQL the statements waiting to share
 * a round trip. It reaches the table modules as `tx.batch` on the transaction handed to each request (`Tx`); a
 * table module that sees no batch writes at once.
 */
export class Batch {
  /** The combined batch's held rows (store/engine/deferred-inserts.ts); undefined: every statement runs at once. */
  held: DeferredInserts | undefined;
  /** The running request's metric changes (store/engine/metrics.ts), written summed at the end of the batch. */
  metrics: MetricDeltas | undefined;
  /** What the batch read in advance (`BatchRead`, below), by the read that asked. */
  readonly answers = new Map<object, Map<unknown, unknown>>();
  private readonly roundTrips: RoundTrips | undefined;
  /** Sends a statement: through `roundTrips` on PostgreSQL, else the connection's own `executeQuery`. */
  private readonly send: Execute;

  constructor(
    /** The store the batch writes for (its lookup cache: store/engine/lookup-cache.ts). */
    readonly store: Db,
    readonly connection: DatabaseConnection,
    readonly ids: IdSource,
    /** PostgreSQL: statements share round trips (store/engine/round-trips.ts). */
    joined: boolean,
  ) {
    const own = connection.executeQuery.bind(connection) as Execute;
    const roundTrips = joined ? new RoundTrips(own) : undefined;
    this.roundTrips = roundTrips;
    this.send = roundTrips ? (query) => roundTrips.run(query) : own;
  }

  /**
   * Runs `query` on the batch's connection. While rows are held: a plain write is held too once the requests ran
   * (`holdAll`), and anything that could see a held row (`DeferredInserts.mustWriteBefore`) first writes them.
   * `statement`: what the query is, declared by whoever built it (store/engine/statement.ts).
   */
  execute(query: CompiledQuery, statement: Statement = statementOf(query)): Promise<QueryResult<unknown>> {
    const held = this.held;
    if (!held) return this.send(query);
    if (held.holdAll && statement.kind === 'write') {
      held.holdQuery(statement.table, query);
      return Promise.resolve({ rows: [] });
    }
    if (statement.kind !== 'read') held.direct++;
    if (held.empty || !held.mustWriteBefore(statement)) return this.send(query);
    return held.write(this.send).then(() => this.send(query));
  }

  /** Sends `query` with the next statement that is waited for (PostgreSQL only, store/engine/round-trips.ts). */
  defer(query: CompiledQuery): void {
    if (!this.roundTrips) throw new Error('statements are deferred in a joined batch only (store/engine/round-trips.ts)');
    this.roundTrips.defer(query);
  }

  /**
   * Writes what the batch still holds and stops holding; `deferred`: with the next statement waited for (the
   * batch's `commit`, PostgreSQL), instead of now.
   */
  async writeHeld(deferred: boolean): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (!held || held.empty) return;
    await held.write(
      deferred
        ? (query) => {
            this.defer(query);
            return Promise.resolve({ rows: [] });
          }
        : this.send,
      deferred,
    );
  }

  /** Forgets the held rows (the batch rolls back). */
  discard(): void {
    this.held?.discard();
    this.held = undefined;
  }
}

/** The store's Kysely instance with its engine attached (store/engine/store-engine.ts), or a transaction of it. */
export type Db = Kysely<Database> & { readonly batch?: Batch; readonly engine?: StoreEngine };

/** The transaction a group-commit batch hands each of its requests: the batch travels with it. */
export type Tx = Kysely<Database> & { readonly batch: Batch };

/**
 * Makes `trx`, the batch's transaction, a `Tx`, and routes what Kysely sends on the batch's connection (statements a
 * request builds itself) through `batch.execute`, until `release` is called.
 */
export function enter(trx: Kysely<Database>, batch: Batch): { tx: Tx; release: () => void } {
  Object.defineProperty(trx, 'batch', { value: batch });
  const { connection } = batch;
  // The driver's method lives on its prototype: shadowed for the batch, then the shadow removed.
  Object.defineProperty(connection, 'executeQuery', {
    value: (query: CompiledQuery) => batch.execute(query),
    configurable: true,
    writable: true,
  });
  return {
    tx: trx as Tx,
    release: () => {
      delete (connection as Partial<DatabaseConnection>).executeQuery;
    },
  };
}

/** True when `db` runs in a transaction: Kysely's own, or a group-commit batch's. */
export function inTransaction(db: Db): boolean {
  return db.isTransaction || db.batch !== undefined;
}

/** The store a group-commit batch writes for, when `db` is a batch's transaction (its lookup cache is that store's). */
export function storeOfBatch(db: Db): Db | undefined {
  return db.batch?.store;
}

/** The tables whose ids a group-commit batch takes before inserting (their inserts can then be held). */
export type IdTable = 'sales' | 'commissions';

/**
 * Where a group-commit batch takes the ids of new sales and commissions. A sale's and its commission's ids go into
 * other rows and into the answer, so an insert that had to return its id (`RETURNING`) could not be held back and
 * cost a statement of its own (on PostgreSQL a round trip). Taken first, the id is known and the insert is a plain
 * one, held with the batch's others (store/engine/deferred-inserts.ts, BENCHMARKS.md, "The hot path, fourth pass", item 1).
 */
export interface IdSource {
  take(batch: Batch, table: IdTable): Promise<number>;
}

const BLOCK = 1024;
const sequenceBlock = (table: IdTable) => CompiledQuery.raw(`select nextval('${table}_id_seq') as id from generate_series(1, ${BLOCK})`);
const blockQueries: Record<IdTable, CompiledQuery> = { sales: sequenceBlock('sales'), commissions: sequenceBlock('commissions') };

/**
 * PostgreSQL: blocks of ids from the table's own sequence (the `bigserial` behind `id`), one round trip per
 * `BLOCK` rows, kept by the store across batches. `nextval` is never rolled back, so an id is never handed out
 * twice, by this server or another; a rolled-back request, or a server stopping, leaves gaps, as a sequence
 * always could. Ids ascend in the order this server takes them; between two servers they interleave by block.
 */
export class SequenceBlocks implements IdSource {
  private readonly free: Record<IdTable, number[]> = { sales: [], commissions: [] };

  async take(batch: Batch, table: IdTable): Promise<number> {
    const free = this.free[table];
    if (free.length === 0) {
      const { rows } = await batch.execute(blockQueries[table], READ);
      // Another request of the batch may have filled the list while this one waited.
      free.push(...(rows as { id: number }[]).map((row) => row.id));
      free.sort((a, b) => a - b);
    }
    return free.shift()!;
  }
}

const lastAutoincrement = CompiledQuery.raw(`select seq from sqlite_sequence where name = ?`);

/**
 * SQLite: the table's `AUTOINCREMENT` counter, read once per batch and counted on in memory. The batch's
 * transaction is the only writer of the file until its COMMIT, and every insert into these tables goes through
 * it, so nobody else takes the next ids meanwhile; an explicit id above the counter moves it on, as SQLite's own
 * would. A batch that rolls back leaves the counter where it was, and the next batch reads it again.
 */
export class AutoincrementCounters implements IdSource {
  private readonly last = new Map<IdTable, Promise<number>>();

  take(batch: Batch, table: IdTable): Promise<number> {
    const next = (this.last.get(table) ?? readCounter(batch, table)).then((last) => last + 1);
    this.last.set(table, next);
    return next;
  }
}

async function readCounter(batch: Batch, table: IdTable): Promise<number> {
  const { rows } = await batch.execute(CompiledQuery.raw(lastAutoincrement.sql, [table]), READ);
  return (rows[0] as { seq: number } | undefined)?.seq ?? 0;
}

/** The next id of `table` when `db` is a group-commit batch's transaction, else undefined (the insert returns its id). */
export function batchId(db: Db, table: IdTable): Promise<number> | undefined {
  const batch = db.batch;
  return batch?.ids.take(batch, table);
}

/**
 * Where each batch of a store takes its ids: on PostgreSQL the store's sequence blocks, kept across batches; on
 * SQLite counters read again by each batch.
 */
export function idSources(dialect: Dialect): () => IdSource {
  if (dialect === 'sqlite') return () => new AutoincrementCounters();
  const blocks = new SequenceBlocks();
  return () => blocks;
}

/**
 * What a combined group-commit batch knows by key while its requests run (store/engine/group-commit.ts,
 * `runCombined`): a row, `null` for no row, nothing (undefined) for a key it was not told about. Kept in the batch
 * (`Batch.answers`), so a batch run request by request (or any other transaction) knows
 * nothing: there a request rolled back to its savepoint would leave its `set` behind, so the caller reads or writes
 * as it would without.
 */
export class BatchAnswers<K, V> {
  private of(db: Db): Map<K, V | null> | undefined {
    return db.batch?.answers.get(this) as Map<K, V | null> | undefined;
  }

  /** Whether `db` is a batch that holds answers (a combined batch that read in advance). */
  holds(db: Db): boolean {
    return this.of(db) !== undefined;
  }

  /** The batch's answer for `key`: a row, null (none), or undefined when it has none (read the database instead). */
  known(db: Db, key: K): V | null | undefined {
    return this.of(db)?.get(key);
  }

  /** Changes the answer for the requests after this one, in a batch that holds answers already (else nothing). */
  set(db: Db, key: K, value: V | null): void {
    this.of(db)?.set(key, value);
  }

  /** Forgets every answer of the batch: a write the answers do not follow (a customer's risk kinds). */
  forget(db: Db): void {
    db.batch?.answers.delete(this);
  }

  /** Forgets the answer for `key` only: the requests after this one read it from the database again. */
  forgetKey(db: Db, key: K): void {
    this.of(db)?.delete(key);
  }

  /** Adds answers learnt from a read in advance (the conversions of the customers it found); known ones stay. */
  learn(db: Db, entries: Iterable<[K, V | null]>): void {
    const batch = db.batch;
    if (!batch) return;
    let answers = this.of(db);
    if (!answers) batch.answers.set(this, (answers = new Map<K, V | null>()));
    for (const [key, value] of entries) if (!answers.has(key)) answers.set(key, value);
  }
}

/**
 * A read a combined group-commit batch makes once for all its requests, before running the first: each request
 * names its keys when it queues (`writeTransaction`'s `reads`), and reads the answers from memory while it runs
 * (`lookup`). Within a server batches run one at a time, so what it read holds for it as long as only it changes
 * those rows; a request that changes one says so with `set` (or `forget`), for the requests after it. Another
 * server's batch may change them meanwhile (PostgreSQL): every write that rests on such a read is checked again by
 * the database (a unique constraint, a conditional update), and a failed check runs the batch again request by
 * request (store/engine/group-commit.ts). Described as a coalesced lookup is (store/engine/coalesced.ts): `read` answers the rows among
 * `keys`, `keyOf` names a key and `keyOfRow` a row by the key that found it.
 */
export class BatchRead<K, V> {
  private readonly answers = new BatchAnswers<string, V>();

  constructor(
    private readonly options: {
      read: (trx: Db, keys: K[]) => Promise<V[]>;
      keyOf: (key: K) => string;
      keyOfRow: (row: V) => string;
    },
  ) {}

  /** Reads `keys` in `trx`, a combined batch, for its requests: a key with no row is known to have none. */
  async load(trx: Db, keys: K[]): Promise<void> {
    const byName = new Map(keys.map((key) => [this.options.keyOf(key), key]));
    const rows = await this.options.read(trx, [...byName.values()]);
    const found = new Map(rows.map((row) => [this.options.keyOfRow(row), row]));
    this.answers.learn(
      trx,
      [...byName.keys()].map((name) => [name, found.get(name) ?? null]),
    );
  }

  /** The batch's answer for `key`, else (outside a combined batch, or a key it was not asked) `read()`'s. */
  async lookup(trx: Db, key: K, read: () => Promise<V | undefined>): Promise<V | undefined> {
    // Outside a combined batch (most reads), no key is named.
    const answer = this.answers.holds(trx) ? this.answers.known(trx, this.options.keyOf(key)) : undefined;
    return answer === undefined ? read() : (answer ?? undefined);
  }

  /** `key`'s row for the requests after this one (`BatchAnswers.set`). */
  set(trx: Db, key: K, value: V | null): void {
    this.answers.set(trx, this.options.keyOf(key), value);
  }

  /** Forgets every answer of the batch (`BatchAnswers.forget`). */
  forget(trx: Db): void {
    this.answers.forget(trx);
  }

  /** Forgets `key`'s answer only (`BatchAnswers.forgetKey`). */
  forgetKey(trx: Db, key: K): void {
    this.answers.forgetKey(trx, this.options.keyOf(key));
  }
}

/** A key a request asks its batch to read in advance (`inAdvance`). */
export interface ReadInAdvance {
  read: BatchRead<unknown, unknown>;
  key: unknown;
}

export function inAdvance<K, V>(read: BatchRead<K, V>, key: K): ReadInAdvance {
  return { read: read as BatchRead<unknown, unknown>, key };
}

/** Reads every request's keys, one statement per kind of read (the requests of one batch, in `trx`). */
export async function readInAdvance(trx: Db, wanted: ReadInAdvance[]): Promise<void> {
  const byRead = new Map<BatchRead<unknown, unknown>, unknown[]>();
  for (const { read, key } of wanted) {
    const keys = byRead.get(read);
    if (keys) keys.push(key);
    else byRead.set(read, [key]);
  }
  // Side by side: on PostgreSQL they share one round trip (store/engine/round-trips.ts). Every read settles before the first
  // failure is thrown, so none is still running when the batch rolls back.
  const settled = await Promise.allSettled([...byRead].map(([read, keys]) => read.load(trx, keys)));
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
}
