/**
 * The store engine: how the store's statements reach the database, apart from what they say. Table modules
 * (store/*.ts) write plain Kysely and use only what this file exports; nothing else of this folder is theirs.
 *
 * Writes. A tracking request hands its work to `writeTransaction`; the store's group commit (group-commit.ts) runs
 * the requests queued in one turn of the event loop in one transaction, a `Batch` (batch.ts), and answers each only
 * after the COMMIT that holds it. The batch is an explicit value: each request's work receives `tx`, the batch's
 * transaction, and `tx.batch` holds everything the batch holds (its connection, where it takes ids, its held rows,
 * the running request's metric changes, what it read in advance, on PostgreSQL the statements waiting to share a
 * round trip). A table module given a `Db` without a batch simply writes at once.
 *
 * - `insertRow`: a plain insert; in a combined batch held back and written with the batch's other rows of that
 *   table as one multi-row insert (deferred-inserts.ts). `batchId` takes a new sale's or commission's id first
 *   (batch.ts), so that its insert can be held too.
 * - `compiled`, `compiledFamily`: a hot-path statement built once with Kysely's builder, run with fresh values
 *   (compiled.ts), prepared on PostgreSQL (prepared.ts). What it is (a read, a plain write of one table) is declared
 *   by the tree it was built from (statement.ts), never read back out of its SQL text.
 * - `bumpProgramMetrics`, `bumpDailyMetrics`, `addDailyAmounts`: counter changes, summed per batch and written last
 *   in a fixed order (metrics.ts).
 * - `behindSavepoint`: a step of a request that may fail alone (a sale's commission).
 * - `rowValues`: SQLite's text for a held statement that writes many rows at once (deferred-inserts.ts).
 *
 * Reads. `BatchRead` with `inAdvance`: keys a request names when it queues, read once for its whole batch
 * (batch.ts). `coalesced`: a lookup many requests ask at once, read by one statement per turn on PostgreSQL
 * (coalesced.ts). `eachKey` and `listParameter`: their list statements, one text for any number of keys
 * (compiled.ts). `cachedLookup`: the hot path's lookups from memory, emptied by any write to their tables
 * (lookup-cache.ts).
 *
 * Guarantees, each proven by tests beside these files and under reference-server/test/scale, test/faults and
 * test/tracking, on both stores: a request is answered only once durable; a failing request rolls back alone; one
 * sale under identical concurrent sales; money exact; nothing acknowledged is lost on a crash.
 */
export {
  batchId,
  BatchAnswers,
  BatchRead,
  inAdvance,
  inTransaction,
  storeOfBatch,
  type Batch,
  type Db,
  type ReadInAdvance,
  type Tx,
} from './batch';
export { rowValues, type DeferredInserts } from './deferred-inserts';
export { coalesced } from './coalesced';
export { compiled, compiledFamily, eachKey, insertRow, listParameter } from './compiled';
export { behindSavepoint, writeTransaction } from './group-commit';
export { cachedLookup } from './lookup-cache';
export { addDailyAmounts, bumpDailyMetrics, bumpProgramMetrics, readAmountTotals, readProgramMetrics } from './metrics';
export { attachEngine } from './store-engine';
