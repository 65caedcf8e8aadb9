import { inTransaction, type Db } from './batch';

/** Keys per statement: a bound on the statement's size (PostgreSQL sends them as one array, SQLite as one JSON text). */
const MAX_KEYS = 500;

interface Pending<R> {
  keys: Map<string, unknown>;
  waiters: Map<string, { resolve(row: R | undefined): void; reject(error: unknown): void }[]>;
}

/**
 * A lookup by key that many requests ask at once (the lead's customer and click, a processor payment's sale; a sale's
 * own reads are made by its batch, `BatchRead`, store/engine/batch.ts):
 * on PostgreSQL, the keys asked for outside a transaction in one turn of the event loop are read by one statement,
 * run on the next turn (BENCHMARKS.md, "The hot path, fourth pass", item 3): one round trip for a batch of requests instead of one
 * each. Each caller sees the database as it was at some moment after it asked, as with a read of its own.
 *
 * In a transaction, and on SQLite, `readOne` reads at once: a SQLite statement costs no round trip, and waiting a
 * turn for the others split the requests that reach the group commit together into more batches (measured: the
 * lead's server CPU per request up by a quarter).
 *
 * `read` answers the rows among `keys` (none for a key with no row); `keyOfRow` names a row by the key that found
 * it; `keyOf` names a key (keys that name alike are read once).
 */
export function coalesced<K, R>(options: {
  read: (db: Db, keys: K[]) => Promise<R[]>;
  /** The lookup of one key (a statement prepared once, store/engine/compiled.ts). */
  readOne: (trx: Db, key: K) => Promise<R | undefined>;
  keyOf: (key: K) => string;
  keyOfRow: (row: R) => string;
}): (db: Db, key: K) => Promise<R | undefined> {
  // This lookup's keys of the turn are kept in the store's engine, under this key (store/engine/store-engine.ts).
  const self = {};

  async function flush(db: Db, coalescing: Map<object, unknown>, batch: Pending<R>): Promise<void> {
    coalescing.delete(self);
    const names = [...batch.keys.keys()];
    for (let at = 0; at < names.length; at += MAX_KEYS) {
      const chunk = names.slice(at, at + MAX_KEYS);
      try {
        const rows = new Map(
          (
            await options.read(
              db,
              chunk.map((name) => batch.keys.get(name) as K),
            )
          ).map((row) => [options.keyOfRow(row), row]),
        );
        for (const name of chunk) for (const waiter of batch.waiters.get(name)!) waiter.resolve(rows.get(name));
      } catch (error) {
        for (const name of chunk) for (const waiter of batch.waiters.get(name)!) waiter.reject(error);
      }
    }
  }

  return (db, key) => {
    const engine = db.engine;
    if (!engine || engine.dialect !== 'postgres' || inTransaction(db)) return options.readOne(db, key);
    const coalescing = engine.coalescing;
    let batch = coalescing.get(self) as Pending<R> | undefined;
    if (!batch) {
      const created: Pending<R> = { keys: new Map(), waiters: new Map() };
      coalescing.set(self, created);
      setImmediate(() => void flush(db, coalescing, created));
      batch = created;
    }
    const name = options.keyOf(key);
    batch.keys.set(name, key);
    return new Promise<R | undefined>((resolve, reject) => {
      const waiters = batch.waiters.get(name);
      if (waiters) waiters.push({ resolve, reject });
      else batch.waiters.set(name, [{ resolve, reject }]);
    });
  };
}
