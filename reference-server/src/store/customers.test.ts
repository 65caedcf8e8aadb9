import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  findCustomerByClick,
  findCustomerByKey,
  insertCustomer,
  leadCustomerRead,
  markConverted,
  saleCustomerRead,
  updateCustomer,
} from './customers';
import { openStore, uniqueSchemaName, type Store } from './db';
import { writeTransaction } from './engine';
import { sentTexts } from './postgres.fixture';

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
    // Each sale reads its customer in its batch, read in advance with the batch's other sales' customers.
    const sale = (key: string, at: number) =>
      writeTransaction(
        db,
        async (trx) => markConverted(trx, (await findCustomerByKey(trx, 1, false, key))!, at, at),
        saleCustomerRead(1, false, key, undefined),
      );
    // One batch: the first sale of each customer converts it, the second one of `a` does not.
    expect(await Promise.all([sale('a', 10), sale('a', 11), sale('b', 12)])).toEqual([true, false, true]);
    // A later batch, with the customer read before the conversion (outside any batch): still not a conversion.
    const a = (await findCustomerByKey(db, 1, false, 'a'))!;
    expect(a.converted_at).toBe(10);
    const stale = { ...a, converted_at: null };
    expect(await Promise.all([writeTransaction(db, (trx) => markConverted(trx, stale, 13, 13)), sale('b', 14)])).toEqual([false, false]);
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
    const sale = (at: number, fail = false) =>
      writeTransaction(
        db,
        async (trx) => {
          const converted = await markConverted(trx, (await findCustomerByKey(trx, 1, false, 'a'))!, at, at);
          if (fail) throw new Error('failed after converting');
          return converted;
        },
        saleCustomerRead(1, false, 'a', undefined),
      );
    const results = await Promise.allSettled([sale(10, true), sale(11), sale(12)]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual(['failed', true, false]);
    expect(await db.selectFrom('customers').select('converted_at').execute()).toEqual([{ converted_at: 11 }]);
  });

  it('a customer changed in a batch is read again by the requests after the change, not taken from the read in advance', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    await insertCustomer(db, customer('a', 'lead'));
    const read = (await findCustomerByKey(db, 1, false, 'a'))!;
    const partner = () =>
      writeTransaction(
        db,
        async (trx) => (await findCustomerByKey(trx, 1, false, 'a'))?.partner_id,
        saleCustomerRead(1, false, 'a', undefined),
      );
    const [before, , after] = await Promise.all([
      partner(),
      writeTransaction(db, (trx) => updateCustomer(trx, read, { partner_id: 2 })),
      partner(),
    ]);
    expect([before, after]).toEqual([1, 2]);
  });

  it('reads in advance the customers of several keys, a key holding the separator included, and none for an unknown key', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    await insertCustomer(db, customer('a|1|b', 'lead'));
    await insertCustomer(db, customer('c', 'lead'));
    const read = (key: string) =>
      writeTransaction(
        db,
        async (trx) => (await findCustomerByKey(trx, 1, false, key))?.customer_key ?? null,
        saleCustomerRead(1, false, key, undefined),
      );
    expect(await Promise.all([read('a|1|b'), read('c'), read('nobody'), read('c')])).toEqual(['a|1|b', 'c', null, 'c']);
  });
});

describe(`lead changes of a combined batch on ${url.split(':')[0]}`, () => {
  it('the leads after a change decide on the customer as changed, by its click and by its new key', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    await insertCustomer(db, { ...customer('x', 'lead'), customer_key: null, status: 'clicked', lead_at: null });
    // As a lead does (domain/tracking/lead.ts): by key, else by click; the first one settles it under its key.
    const lead = (key: string, at: number) =>
      writeTransaction(
        db,
        async (trx) => {
          const found = (await findCustomerByKey(trx, 1, false, key)) ?? (await findCustomerByClick(trx, 'clk_x'))!;
          if (found.status === 'clicked')
            await updateCustomer(trx, found, { status: 'lead', customer_key: key, lead_at: at, updated_at: at });
          return `${found.status} ${found.customer_key}`;
        },
        leadCustomerRead(1, false, key, 'clk_x'),
      );
    expect(await Promise.all([lead('k', 5), lead('k', 6), lead('other', 7)])).toEqual(['clicked null', 'lead k', 'lead k']);
    const rows = await db.selectFrom('customers').select(['customer_key', 'status', 'lead_at']).execute();
    expect(rows).toEqual([{ customer_key: 'k', status: 'lead', lead_at: 5 }]);
  });

  it('are checked against the customer as read: a stale one fails the batch, which runs again apart, and answers false', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    for (const key of ['a', 'b', 'c']) await insertCustomer(db, customer(key, 'provisional_lead'));
    const read = async (key: string) => (await findCustomerByKey(db, 1, false, key))!;
    const [a, b, c] = [await read('a'), await read('b'), await read('c')];
    const lead = (asRead: typeof a, at: number) =>
      writeTransaction(db, (trx) => updateCustomer(trx, asRead, { status: 'lead', provisional: 0, lead_at: at, updated_at: at }));
    expect(await Promise.all([lead(a, 5), lead(c, 6)])).toEqual([true, true]);
    // `b` changes after it was read (another server's lead, a sale of the batch): the batch runs again apart.
    await updateCustomer(db, b, { status: 'lead', updated_at: 7 });
    expect(await Promise.all([lead(await read('a'), 8), lead(b, 9)])).toEqual([true, false]);
    const rows = await db.selectFrom('customers').select(['customer_key', 'status', 'lead_at']).orderBy('id').execute();
    expect(rows).toEqual([
      { customer_key: 'a', status: 'lead', lead_at: 8 },
      { customer_key: 'b', status: 'lead', lead_at: 1 },
      { customer_key: 'c', status: 'lead', lead_at: 6 },
    ]);
    // A customer gone since it was read (a released browser lead) is no change either.
    const gone = await read('c');
    await db.deleteFrom('customers').where('id', '=', gone.id).execute();
    expect(await Promise.all([lead(await read('a'), 10), lead(gone, 11)])).toEqual([true, false]);
  });
});

describe.runIf(url.startsWith('postgres'))('lead changes of a combined batch on PostgreSQL', () => {
  it('go with the commit in one round trip', async () => {
    const driver = vi.spyOn(pg.Client.prototype, 'query');
    // The store's listener (store/db.ts) may send its LISTEN meanwhile, on a connection of its own.
    const sent = () => sentTexts(driver.mock.calls).filter((text) => !text.startsWith('LISTEN'));
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    for (const key of ['a', 'c']) await insertCustomer(db, customer(key, 'provisional_lead'));
    const read = async (key: string) => (await findCustomerByKey(db, 1, false, key))!;
    const [a, c] = [await read('a'), await read('c')];
    const lead = (asRead: typeof a, at: number) =>
      writeTransaction(db, (trx) => updateCustomer(trx, asRead, { status: 'lead', provisional: 0, lead_at: at, updated_at: at }));
    driver.mockClear();
    expect(await Promise.all([lead(a, 5), lead(c, 6)])).toEqual([true, true]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toMatch(/^\/\* svc: joined \*\/ begin; update "customers" .*; select .*; commit$/);
  });
});

describe.runIf(url.startsWith('postgres'))('two servers on one PostgreSQL schema', () => {
  let other: Store | undefined;
  afterEach(async () => other?.close());

  it("run their batches side by side, and a sale whose customer the other's batch converted meanwhile is no conversion", async () => {
    const schema = uniqueSchemaName();
    store = await openStore(url, { pgSchema: schema, dropSchemaOnClose: true });
    other = await openStore(url, { pgSchema: schema });
    await insertCustomer(store.db, customer('a', 'lead'));
    const sale = (db: Store['db'], at: number, before?: Promise<unknown>) =>
      writeTransaction(
        db,
        async (trx) => {
          // Read in advance while the customer was open; converted by the other server before this sale goes on.
          const read = (await findCustomerByKey(trx, 1, false, 'a'))!;
          await before;
          return markConverted(trx, read, at, at);
        },
        saleCustomerRead(1, false, 'a', undefined),
      );
    let convertedElsewhere!: Promise<boolean>;
    const waiting = new Promise<void>((started) => {
      setImmediate(() => {
        // This server's batch is open and waits: the other server's batch commits meanwhile (no lock between them).
        convertedElsewhere = sale(other!.db, 20);
        started();
      });
    });
    const here = sale(
      store.db,
      10,
      waiting.then(() => convertedElsewhere),
    );
    expect(await here).toBe(false);
    expect(await convertedElsewhere).toBe(true);
    const row = await store.db.selectFrom('customers').select(['status', 'converted_at']).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'converted', converted_at: 20 });
  });
});
