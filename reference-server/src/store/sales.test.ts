import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from './db';
import { writeTransaction } from './engine';
import { saleRow } from './rows.fixture';
import { findSaleByTransactionId, insertSale, saleOfTransactionRead } from './sales';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe(`sales by transaction id, read in advance by a group-commit batch, on ${url.split(':')[0]}`, () => {
  it('a sale finds the one recorded before it under its transaction id: in an earlier batch, or earlier in its own', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    // As the sale route does: the batch reads every sale's transaction id first, and a sale that finds one records nothing.
    const record = (transactionId: string, amount: number) =>
      writeTransaction(
        db,
        async (trx) => {
          const found = await findSaleByTransactionId(trx, transactionId);
          return found ? { found: found.amount_cents } : { recorded: await insertSale(trx, saleRow(transactionId, amount)) };
        },
        [saleOfTransactionRead(transactionId)],
      );
    const first = await Promise.all([record('t-1', 100), record('t-1', 200), record('t-2', 300)]);
    expect(first).toEqual([{ recorded: expect.any(Number) }, { found: 100 }, { recorded: expect.any(Number) }]);
    expect(await Promise.all([record('t-2', 400), record('t-3', 500)])).toEqual([{ found: 300 }, { recorded: expect.any(Number) }]);
    const rows = await db.selectFrom('sales').select(['processor_event_id', 'amount_cents']).orderBy('id').execute();
    expect(rows).toEqual([
      { processor_event_id: 't-1', amount_cents: 100 },
      { processor_event_id: 't-2', amount_cents: 300 },
      { processor_event_id: 't-3', amount_cents: 500 },
    ]);
  });
});
