import { sql, type Insertable, type Kysely } from 'kysely';
import { batchId } from './batch-ids';
import { BatchRead, inAdvance, type ReadInAdvance } from './batch-reads';
import { coalesced, isPostgres, listParameter, oneOf } from './coalesced';
import { compiled, insertRow } from './compiled';
import type { Database, Sale, SalesTable } from './schema';

type Db = Kysely<Database>;

type SaleOfTransaction = Pick<Sale, 'id' | 'program_id' | 'amount_cents' | 'currency' | 'processor_event_id'>;

const byTransactionId = compiled<{ transactionId: string }, SaleOfTransaction>((db, $) =>
  db
    .selectFrom('sales')
    .select(['id', 'program_id', 'amount_cents', 'currency', 'processor_event_id'])
    .where('processor_event_id', '=', $('transactionId')),
);

/**
 * The sales of several transaction ids. PostgreSQL: one index lookup per id (a lateral join), as for customers by
 * key (store/customers.ts, `byKeyList`): `processor_event_id = any($1)` on a sales table that had just grown cost
 * 3 ms a batch in the bench (BENCHMARKS.md, "The hot path, fifth pass"). SQLite: `oneOf` (store/coalesced.ts).
 */
const byTransactionIdList = compiled<{ ids: unknown }, SaleOfTransaction>((db, $) =>
  isPostgres(db)
    ? db
        .selectFrom(sql<{ t: string }>`unnest(${$('ids')}::text[])`.as('t'))
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('sales')
              .select(['id', 'program_id', 'amount_cents', 'currency', 'processor_event_id'])
              .whereRef('processor_event_id', '=', sql.ref('t.t'))
              .limit(1)
              .as('s'),
          (join) => join.onTrue(),
        )
        .selectAll('s')
    : db
        .selectFrom('sales')
        .select(['id', 'program_id', 'amount_cents', 'currency', 'processor_event_id'])
        .where(oneOf(db, 'processor_event_id', $('ids'))),
);

const byTransactionIds = coalesced<string, SaleOfTransaction>({
  read: async (db, ids) => (await byTransactionIdList(db, { ids: listParameter(db, ids) })).rows,
  readOne: async (trx, transactionId) => (await byTransactionId(trx, { transactionId })).rows[0],
  keyOf: (transactionId) => transactionId,
  keyOfRow: (sale) => sale.processor_event_id,
});

/** The sales a combined batch read in advance by transaction id (`saleOfTransactionRead`), then the ones it inserted. */
const transactionsInBatch = new BatchRead<string, SaleOfTransaction>(async (trx, ids) => {
  const { rows } = await byTransactionIdList(trx, { ids: listParameter(trx, ids) });
  return new Map(rows.map((row) => [row.processor_event_id, row]));
});

/** What a sale's batch reads in advance, with its other sales' (store/batch-reads.ts): the sale of its transaction id. */
export function saleOfTransactionRead(transactionId: string): ReadInAdvance {
  return inAdvance(transactionsInBatch, transactionId);
}

/** The sale recorded under a transaction id, in any program (§Resources/Sale record: unique globally). */
export function findSaleByTransactionId(db: Db, transactionId: string): Promise<SaleOfTransaction | undefined> {
  return transactionsInBatch.lookup(db, transactionId, () => byTransactionIds(db, transactionId));
}

export function findSaleInProgram(db: Db, programId: number, transactionId: string): Promise<Sale | undefined> {
  return db
    .selectFrom('sales')
    .selectAll()
    .where('program_id', '=', programId)
    .where('processor_event_id', '=', transactionId)
    .executeTakeFirst();
}

/** In a group-commit batch the id is taken first (store/batch-ids.ts), so the insert can be held with the batch's others. */
export async function insertSale(db: Db, sale: Insertable<SalesTable>): Promise<number> {
  const id = await batchId(db, 'sales');
  if (id === undefined) return insertRow(db, 'sales', sale, true);
  await insertRow(db, 'sales', { id, ...sale });
  // A later sale of the batch with the same transaction id finds this one, as it would once written.
  const { program_id, amount_cents, currency, processor_event_id } = sale;
  transactionsInBatch.set(db, processor_event_id, { id, program_id, amount_cents, currency, processor_event_id });
  return id;
}

/** Marks the sale refunded; false when another request refunded it first. */
export async function markRefunded(
  db: Db,
  saleId: number,
  refund: { reason: string | null; note: string | null; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('sales')
    .set({ refunded: 1, refunded_at: refund.now, refund_reason: refund.reason, refund_note: refund.note })
    .where('id', '=', saleId)
    .where('refunded', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
