import type { Kysely } from 'kysely';
import type { Dialect } from '../db';
import type { Database } from '../schema';
import { idSources } from './batch';
import { BatchSteps, GroupCommit } from './group-commit';
import type { LookupCache } from './lookup-cache';
import { metricShards } from './metrics';

/**
 * PostgreSQL: batches of one server at once, one running its requests while the others' commits are flushed
 * (store/engine/group-commit.ts).
 */
const PG_BATCHES_AT_ONCE = 2;

/**
 * What the engine keeps for one store, on the store's Kysely instance (`db.engine`): its group commit, its lookup
 * cache, and the coalesced lookups waiting for the next turn (store/engine/coalesced.ts). A transaction's Kysely
 * instance has none of it: a read there goes to the database.
 */
export interface StoreEngine {
  readonly dialect: Dialect;
  readonly writer: GroupCommit;
  readonly cache: LookupCache;
  /** The keys asked of each coalesced lookup in this turn, by lookup (store/engine/coalesced.ts). */
  readonly coalescing: Map<object, unknown>;
}

/**
 * Attaches the engine to a store opened by store/db.ts. On PostgreSQL the batch's commands share round trips and
 * held inserts number their parameters.
 */
export function attachEngine(db: Kysely<Database>, options: { dialect: Dialect; cache: LookupCache }): void {
  const postgres = options.dialect === 'postgres';
  const writer = new GroupCommit(
    db,
    new BatchSteps(postgres),
    postgres ? 'numbered' : 'question',
    idSources(options.dialect),
    metricShards(options.dialect, postgres ? PG_BATCHES_AT_ONCE : 1),
  );
  const engine: StoreEngine = { dialect: options.dialect, writer, cache: options.cache, coalescing: new Map() };
  Object.defineProperty(db, 'engine', { value: engine });
}
