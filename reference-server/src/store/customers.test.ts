import { afterEach, describe, expect, it } from 'vitest';
import { conversionRead, findCustomerByKey, insertCustomer, markConverted } from './customers';
import { openStore, uniqueSchemaName, type Store } from './db';
import { writeTransaction } from './group-commit';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

const customer = (key: string, status: 'lead' | 'provisional_lead') => ({
  program_id: 1,
  customer_key: key,
  click_id: `clk_${key}`,
  partner_id: 1,
  status,
  is_test: 0 as const,
  email: null,
  lead_at: 1,
  converted_at: null,
  clicked_at: 1,
  created_at: 1,
  updated_at: 1,
});

describe(`customer conversions in group-commit batches on ${url.split(':')[0]}`, () => {
  it('one sale of a customer converts it, whichever batch the others run in; a provisional lead keeps its status', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    await insertCustomer(db, customer('a', 'lead'));
    await insertCustomer(db, customer('b', 'provisional_lead'));
    const a = (await findCustomerByKey(db, 1, false, 'a'))!;
    const b = (await findCustomerByKey(db, 1, false, 'b'))!;
    // Each sale read its customer before queueing, unconverted.
    const sale = (read: typeof a, at: number) => writeTransaction(db, (trx) => markConverted(trx, read, at, at), conversionRead(read));
    // One batch: the first sale of each customer converts it, the second one of `a` does not.
    expect(await Promise.all([sale(a, 10), sale(a, 11), sale(b, 12)])).toEqual([true, false, true]);
    // A later batch, with the customer read before the conversion: still not a conversion.
    expect(await Promise.all([sale(a, 13), sale(b, 14)])).toEqual([false, false]);
    const rows = await db.selectFrom('customers').select(['customer_key', 'status', 'converted_at', 'updated_at']).orderBy('id').execute();
    expect(rows).toEqual([
      { customer_key: 'a', status: 'converted', converted_at: 10, updated_at: 10 },
      { customer_key: 'b', status: 'provisional_lead', converted_at: 12, updated_at: 12 },
    ]);
  });

  it('a batch that fails and runs again request by request converts exactly once', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    await insertCustomer(db, customer('a', 'lead'));
    const a = (await findCustomerByKey(db, 1, false, 'a'))!;
    const sale = (at: number, fail = false) =>
      writeTransaction(
        db,
        async (trx) => {
          const converted = await markConverted(trx, a, at, at);
          if (fail) throw new Error('failed after converting');
          return converted;
        },
        conversionRead(a),
      );
    const results = await Promise.allSettled([sale(10, true), sale(11), sale(12)]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual(['failed', true, false]);
    expect(await db.selectFrom('customers').select('converted_at').execute()).toEqual([{ converted_at: 11 }]);
  });
});
