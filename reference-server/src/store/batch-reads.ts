import type { Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/**
 * A read a combined group-commit batch makes once for all its requests, before running the first (store/
 * group-commit.ts, `runCombined`): each request names its keys when it queues (`writeTransaction`'s `reads`), and
 * reads the answer from memory while it runs. The batch runs alone (the advisory lock on PostgreSQL, the one
 * connection on SQLite), so what it read holds for it as long as only it changes those rows; a request that
 * changes one says so with `set`, for the requests after it. In a batch run request by request nothing is read
 * in advance (a request rolled back to its savepoint would leave its `set` behind): `get` answers undefined and
 * the caller reads or writes as it would without.
 */
export class BatchRead<K, V> {
  private readonly answers = new WeakMap<Db, Map<K, V>>();

  constructor(private readonly readAll: (trx: Db, keys: K[]) => Promise<Map<K, V>>) {}

  /** Reads `keys` in `trx`, a combined batch, for its requests. */
  async load(trx: Db, keys: K[]): Promise<void> {
    this.answers.set(trx, await this.readAll(trx, [...new Set(keys)]));
  }

  /** What the batch read (or a request of it set) for `key`; undefined outside a combined batch, or when it found no row. */
  get(trx: Db, key: K): V | undefined {
    return this.answers.get(trx)?.get(key);
  }

  set(trx: Db, key: K, value: V): void {
    this.answers.get(trx)?.set(key, value);
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
  for (const { read, key } of wanted) byRead.set(read, [...(byRead.get(read) ?? []), key]);
  for (const [read, keys] of byRead) await read.load(trx, keys);
}
