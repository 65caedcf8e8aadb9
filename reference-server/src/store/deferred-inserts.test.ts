import type { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { insertClick } from './clicks';
import { openStore, uniqueSchemaName, type Store } from './db';
import { DeferredInserts } from './deferred-inserts';
import { insertEvent } from './events';
import { writeTransaction } from './group-commit';
import { findSaleByTransactionId, insertSale } from './sales';
import { isUniqueViolation } from './unique-violation';

const event = (n: number) => ({
  program_id: 1,
  type: 'click' as const,
  is_test: 0 as const,
  occurred_at: n,
  partner_id: 1,
  click_id: `clk_${n}`,
  customer_key: null,
  sale_id: null,
  amount_cents: null,
  currency: null,
  source: null,
});

/** What `write` sends, without a database. */
async function written(held: DeferredInserts): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  await held.write(async (query) => {
    queries.push(query);
    return { rows: [] };
  });
  return queries;
}

describe('DeferredInserts', () => {
  it('writes each table and column set as multi-row inserts, rows in the order asked, tables in first-asked order', async () => {
    const held = new DeferredInserts('numbered');
    held.add('clicks', { click_id: 'a', created_at: 1 });
    held.add('events', { type: 'click', occurred_at: 1 });
    held.add('clicks', { click_id: 'b', created_at: 2 });
    held.add('events', { type: 'click', occurred_at: 2, source: undefined });
    const queries = await written(held);
    expect(queries.map((q) => [q.sql, q.parameters])).toEqual([
      ['insert into "clicks" ("click_id", "created_at") values ($1, $2), ($3, $4)', ['a', 1, 'b', 2]],
      ['insert into "events" ("type", "occurred_at") values ($1, $2), ($3, $4)', ['click', 1, 'click', 2]],
    ]);
    expect(held.empty).toBe(true);
    expect(await written(held)).toEqual([]);
  });

  it('on SQLite, in chunks of powers of two (few statement texts to keep prepared)', async () => {
    const held = new DeferredInserts('question');
    for (let n = 0; n < 100; n++) held.add('events', { occurred_at: n });
    const queries = await written(held);
    expect(queries.map((q) => q.parameters.length)).toEqual([64, 32, 4]);
    expect(queries[2]!.sql).toBe('insert into "events" ("occurred_at") values (?), (?), (?), (?)');
    expect(queries.flatMap((q) => q.parameters)).toEqual(Array.from({ length: 100 }, (_, n) => n));
  });

  it('refuses a table or column that is not a plain identifier', () => {
    const held = new DeferredInserts('question');
    expect(() => held.add('events"; drop table events; --', { a: 1 })).toThrow(/not a plain identifier/);
    expect(() => held.add('events', { 'a" = 1': 1 })).toThrow(/not a plain identifier/);
  });

  it('lets only a plain insert or update of another table run before the held rows', () => {
    const held = new DeferredInserts('numbered');
    held.add('events', { occurred_at: 1 });
    expect(held.mustWriteBefore('insert into "sales" ("amount_cents") values ($1) returning "id"')).toBe(false);
    expect(held.mustWriteBefore('update "customers" set "converted_at" = $1 where "id" = $2 and "converted_at" is null')).toBe(false);
    // The same table, anything that reads, and anything unrecognised wait for the held rows.
    expect(held.mustWriteBefore('insert into "events" ("occurred_at") values ($1)')).toBe(true);
    expect(held.mustWriteBefore('update "customers" set "n" = (select count(*) from "events")')).toBe(true);
    expect(held.mustWriteBefore('insert into "sales" ("n") select count(*) from "events"')).toBe(true);
    expect(held.mustWriteBefore('select * from "events"')).toBe(true);
    expect(held.mustWriteBefore('delete from "customers" where "id" = $1')).toBe(true);
    expect(held.mustWriteBefore('savepoint commission')).toBe(true);
    expect(held.mustWriteBefore('commit')).toBe(true);
    expect(held.mustWriteBefore('insert into events (occurred_at) values ($1)')).toBe(true);
  });
});

const sale = (transactionId: string) => ({
  program_id: 1,
  customer_id: null,
  partner_id: null,
  processor_event_id: transactionId,
  amount_cents: 100,
  currency: 'USD' as const,
  is_test: 0 as const,
  provider: null,
  provider_payment_id: null,
  livemode: null,
  source: 'api' as const,
  occurred_at: 1,
  created_at: 1,
  refunded_at: null,
  refund_reason: null,
  refund_note: null,
});

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe(`held inserts in a combined batch on ${url.split(':')[0]}`, () => {
  it('a later request of the batch reads the rows an earlier one inserted, as if written at once', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const seen: number[] = [];
    // Queued in one turn of the event loop: one batch.
    await Promise.all(
      [1, 2, 3].map((n) =>
        writeTransaction(db, async (trx) => {
          await insertEvent(trx, event(n));
          const rows = await trx.selectFrom('events').select('occurred_at').execute();
          seen.push(rows.length);
        }),
      ),
    );
    expect(seen).toEqual([1, 2, 3]);
    const events = await db.selectFrom('events').select(['id', 'click_id']).orderBy('id').execute();
    expect(events.map((e) => e.click_id)).toEqual(['clk_1', 'clk_2', 'clk_3']);
  });

  it('a held row that breaks a constraint fails its own request only: the batch runs again request by request', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const click = (clickId: string, now: number) =>
      writeTransaction(db, async (trx) => {
        await insertClick(trx, { clickId, programId: 1, partnerId: 1, linkId: 1, isTest: false, now });
        await insertEvent(trx, { ...event(now), click_id: clickId });
        return clickId;
      });
    // The second click reuses the first one's id: the clicks' multi-row insert fails, and nobody can tell whose.
    const results = await Promise.allSettled([click('c1', 1), click('c1', 2), click('c3', 3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isUniqueViolation((results[1] as PromiseRejectedResult).reason)).toBe(true);
    const clicks = await db.selectFrom('clicks').select(['click_id', 'created_at']).orderBy('id').execute();
    expect(clicks).toEqual([
      { click_id: 'c1', created_at: 1 },
      { click_id: 'c3', created_at: 3 },
    ]);
    // The failed request's event went with it.
    const events = await db.selectFrom('events').select('occurred_at').orderBy('id').execute();
    expect(events).toEqual([{ occurred_at: 1 }, { occurred_at: 3 }]);
    // And the next batch is combined again, and commits.
    await Promise.all([click('c4', 4), click('c5', 5)]);
    expect(await db.selectFrom('clicks').select('click_id').orderBy('id').execute()).toHaveLength(4);
  });

  it('a request failing in a combined batch is answered after the others committed, as if run request by request', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const record = (transactionId: string) => writeTransaction(db, (trx) => insertSale(trx, sale(transactionId)));
    // Connections ready in the pool (PostgreSQL), so the lookup below is not slowed by opening one.
    await Promise.all([1, 2, 3].map(() => findSaleByTransactionId(db, 'none')));
    // The second sale breaks the unique transaction id (not a held insert: it returns its id). Its caller looks the
    // winner up when told, as the sale route's 409 does: the winner must be committed by then.
    let winnerWhenTold: unknown;
    const results = await Promise.allSettled([
      record('t-1'),
      record('t-1').catch(async (error: unknown) => {
        winnerWhenTold = await findSaleByTransactionId(db, 't-1');
        throw error;
      }),
      record('t-2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isUniqueViolation((results[1] as PromiseRejectedResult).reason)).toBe(true);
    expect(winnerWhenTold).toMatchObject({ id: (results[0] as PromiseFulfilledResult<number>).value });
    expect(await db.selectFrom('sales').select('processor_event_id').orderBy('id').execute()).toEqual([
      { processor_event_id: 't-1' },
      { processor_event_id: 't-2' },
    ]);
  });

  it('a request that held rows and then failed runs again request by request: its first failing statement decides', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const both = (clickId: string, transactionId: string) =>
      writeTransaction(db, async (trx) => {
        await insertClick(trx, { clickId, programId: 1, partnerId: 1, linkId: 1, isTest: false, now: 1 });
        await insertSale(trx, sale(transactionId));
      });
    // The second request's click (held) would have failed before its sale did, had it been written at once.
    const results = await Promise.allSettled([both('c1', 't-1'), both('c1', 't-1')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    const error = (results[1] as PromiseRejectedResult).reason as Error & { constraint?: string };
    expect(isUniqueViolation(error)).toBe(true);
    expect(`${error.message} ${error.constraint ?? ''}`).toMatch(/click/);
  });
});
