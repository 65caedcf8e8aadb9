import type { DatabaseConnection, Kysely } from 'kysely';
import type { Database } from '../schema';

type Db = Kysely<Database>;

/** The connection each group-commit batch holds for its one transaction, by the batch's Kysely instance. */
const connections = new WeakMap<Db, DatabaseConnection>();
/** The store each batch runs for (its lookup cache is the store's: store/engine/lookup-cache.ts). */
const stores = new WeakMap<Db, Db>();

/**
 * Registers `trx`, a group-commit batch (store/engine/group-commit.ts), with its connection. Kysely hands every
 * statement of `trx` to that one connection anyway; the hot path's compiled queries go to it directly
 * (store/engine/compiled.ts), without Kysely's executor around each statement (about 3 µs each, BENCHMARKS.md).
 */
export async function enterBatch(trx: Db, store: Db): Promise<void> {
  connections.set(trx, await trx.getExecutor().provideConnection(async (held) => held));
  stores.set(trx, store);
}

/** The store whose batch `db` is, else undefined. */
export function storeOfBatch(db: Db): Db | undefined {
  return stores.get(db);
}

/** The batch's connection when `db` is a batch, else undefined. */
export function batchConnectionOf(db: Db): DatabaseConnection | undefined {
  return connections.get(db);
}

/** True when `db` runs in a transaction: Kysely's own, or a group-commit batch's. */
export function inTransaction(db: Db): boolean {
  return db.isTransaction || connections.has(db);
}
