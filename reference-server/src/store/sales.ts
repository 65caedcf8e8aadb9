import type { Insertable } from 'kysely';
import {
  batchId,
  BatchRead,
  inAdvance,
  type ReadInAdvance,
  coalesced,
  eachKey,
  listParameter,
  compiled,
  insertRow,
  type Db,
} from './engine';
import type { Sale, SalesTable } from './schema';

type SaleOfTransaction = Pick<Sale, 'id' | 'program_id' | 'amount_cents' | 'currency' | 'processor_event_id'>;

const byTransactionId = compiled<{ transactionId: string }, SaleOfTransaction>((db, $) =>
  db
    .selectFrom('sales')
    .select(['id', 'program_id', 'amount_cents', 'currency', 'processor_event_id'])
    .where('processor_event_id', '=', $('transactionId')),
);

/** The sales of several transaction ids (`eachKey`: one index lookup per id). */
const byTransactionIdList = compiled<{ ids: unknown }, SaleOfTransaction>((db, $) =>
  eachKey(db, $('ids'), (matches) =>
    db
      .selectFrom('sales')
      .select(['id', 'program_id', 'amount_cents', 'currency', 'processor_event_id'])
      .where(matches('processor_event_id')),
  ),
);

/** The sales of several transaction ids, named by transaction id (for `coalesced` and `BatchRead`). */
const transactionLookups = {
  read: async (db: Db, ids: string[]) => (await byTransactionIdList(db, { ids: listParameter(db, ids) })).rows,
  keyOf: (transactionId: string) => transactionId,
  keyOfRow: (sale: SaleOfTransaction) => sale.processor_event_id,
};

const byTransactionIds = coalesced<string, SaleOfTransaction>({
  ...transactionLookups,
  readOne: async (trx, transactionId) => (await byTransactionId(trx, { transactionId })).rows[0],
});

/** The sales a combined batch read in advance by transaction id (`saleOfTransactionRead`), then the ones it inserted. */
const transactionsInBatch = new BatchRead<string, SaleOfTransaction>(transactionLookups);

/** What a sale's batch reads in advance, with its other sales' (`BatchRead`, store/engine/batch.ts): the sale of its transaction id. */
export function saleOfTransactionRead(transactionId: string): ReadInAdvance {
  return inAdvance(transactionsInBatch, transactionId);
}

/** The sale recorded under a transaction id, in any program (spec/rules.md "Resources/Sale record": unique globally). */
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

/** In a group-commit batch the id is taken first (store/engine/batch.ts), so the insert can be held with the batch's others. */
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
