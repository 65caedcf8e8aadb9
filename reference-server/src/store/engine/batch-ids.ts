import { CompiledQuery } from 'kysely';
import type { Dialect } from '../db';
import type { Batch, Db } from './batch';
import { READ } from './statement';

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
