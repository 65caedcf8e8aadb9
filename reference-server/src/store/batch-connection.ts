import type { DatabaseConnection, Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/** The connection each group-commit batch holds for its one transaction, by the batch's Kysely instance. */
const connections = new WeakMap<Db, DatabaseConnection>();

/**
 * Registers `trx`, a group-commit batch (store/group-commit.ts), with its connection. Kysely hands every
 * statement of `trx` to that one connection anyway; the hot path's compiled queries go to it directly
 * (store/compiled.ts), without Kysely's executor around each statement (about 3 µs each, BENCHMARKS.md).
 */
export async function enterBatch(trx: Db): Promise<void> {
  connections.set(trx, await trx.getExecutor().provideConnection(async (held) => held));
}

/** The batch's connection when `db` is a batch, else undefined. */
export function batchConnectionOf(db: Db): DatabaseConnection | undefined {
  return connections.get(db);
}

/** True when `db` runs in a transaction: Kysely's own, or a group-commit batch's. */
export function inTransaction(db: Db): boolean {
  return db.isTransaction || connections.has(db);
}
