import { PostgresAdapter, sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { inTransaction } from './batch-connection';
import type { Database } from './schema';

type Db = Kysely<Database>;

export const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Keys per statement: a bound on the statement's size (PostgreSQL sends them as one array, SQLite as one JSON text). */
const MAX_KEYS = 500;

interface Pending<R> {
  keys: Map<string, unknown>;
  waiters: Map<string, { resolve(row: R | undefined): void; reject(error: unknown): void }[]>;
}

/**
 * A lookup by key that many requests ask at once (the lead's customer and click, a processor payment's sale; a sale's
 * own reads are made by its batch, store/batch-reads.ts):
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
  /** The lookup of one key (a statement prepared once, store/compiled.ts). */
  readOne: (trx: Db, key: K) => Promise<R | undefined>;
  keyOf: (key: K) => string;
  keyOfRow: (row: R) => string;
}): (db: Db, key: K) => Promise<R | undefined> {
  const pending = new WeakMap<Db, Pending<R>>();

  async function flush(db: Db, batch: Pending<R>): Promise<void> {
    pending.delete(db);
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
    if (inTransaction(db) || !isPostgres(db)) return options.readOne(db, key);
    let batch = pending.get(db);
    if (!batch) {
      const created: Pending<R> = { keys: new Map(), waiters: new Map() };
      pending.set(db, created);
      setImmediate(() => void flush(db, created));
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

/**
 * `column` is one of a list, in one statement text whatever the list's length: PostgreSQL `= any($1)` (one array
 * parameter), SQLite `in (select value from json_each(?))` (one JSON parameter). So the statement is compiled and
 * prepared once (store/compiled.ts); a list of placeholders would be a new text for each count. `list` is the
 * compiled query's slot for `listParameter`'s value.
 */
export function oneOf(db: Db, column: string, list: unknown): Expression<SqlBool> {
  return isPostgres(db)
    ? sql<SqlBool>`${sql.ref(column)} = any(${list})`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${list}))`;
}

/** The parameter `oneOf` takes for `values`: the array itself (PostgreSQL), or its JSON text (SQLite). */
export function listParameter(db: Db, values: readonly (string | number)[]): unknown {
  return isPostgres(db) ? values : JSON.stringify(values);
}
