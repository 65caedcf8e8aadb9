import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from './db';
import { isUniqueViolation } from './unique-violation';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe(`store on ${url.split(':')[0]}`, () => {
  it('migrates and round-trips integers, flags and epoch-ms times', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const now = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
    const account = await store.db
      .insertInto('accounts')
      .values({ email: 'a@example.test', blocked: 1, created_at: now })
      .returning(['id', 'blocked', 'created_at'])
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ id: expect.any(Number), blocked: 1, created_at: now });
  });

  it('enforces the global uniqueness of processor_event_id', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const sale = {
      program_id: 1,
      processor_event_id: 'txn_1',
      amount_cents: 100,
      currency: 'USD' as const,
      is_test: 0 as const,
      source: 'api' as const,
      occurred_at: 1,
      created_at: 1,
    };
    await store.db.insertInto('sales').values(sale).execute();
    const error = await store.db
      .insertInto('sales')
      .values({ ...sale, program_id: 2 })
      .execute()
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('wipes every row', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    await store.db.insertInto('accounts').values({ email: 'b@example.test', blocked: 0, created_at: 1 }).execute();
    await store.wipe();
    expect(await store.db.selectFrom('accounts').selectAll().execute()).toEqual([]);
  });
});
