import type { Db } from './batch';

/**
 * What a combined group-commit batch knows by key while its requests run (store/engine/group-commit.ts,
 * `runCombined`): a row, `null` for no row, nothing (undefined) for a key it was not told about. Kept in the batch
 * (`Batch.answers`, store/engine/batch.ts), so a batch run request by request (or any other transaction) knows
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

  /** Forgets every answer of the batch: a write the answers do not follow (a lead's change to a customer). */
  forget(db: Db): void {
    db.batch?.answers.delete(this);
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
