import type { CompiledQuery, DatabaseConnection, Kysely, QueryResult } from 'kysely';
import type { Database } from '../schema';
import type { IdSource } from './batch-ids';
import type { DeferredInserts } from './deferred-inserts';
import type { MetricDeltas } from './metrics';
import { RoundTrips } from './round-trips';
import { statementOf, type Statement } from './statement';
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
  /** What the batch read in advance (store/engine/batch-reads.ts), by the read that asked. */
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
