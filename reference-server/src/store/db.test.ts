import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from './db';
import { endConnectionWhileItSleeps } from './postgres.fixture';
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

describe.runIf(url.startsWith('postgres'))('store on PostgreSQL, its connections ended by the server', () => {
  it('fails only the statement that was running, and goes on with new connections', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    // Two pooled connections (two statements at once); then one runs a long statement and the other is idle.
    const pid = () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(db);
    const pids = (await Promise.all([pid(), pid()])).map((result) => result.rows[0]!.pid);
    const running = sql`select pg_sleep(5)`.execute(db).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Both ended by the server, as a restart or an operator would end them.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
    await admin.end();
    expect(await running).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The process is still here (an 'error' event nobody listened to would have ended it), and the store answers.
    expect((await sql<{ n: number }>`select 1 as n`.execute(db)).rows).toEqual([{ n: 1 }]);
  });

  it('never hands out again the connection whose statement the server ended', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const running = sql`select pg_sleep(5.033)`.execute(db).catch((error: unknown) => error);
    await endConnectionWhileItSleeps(url, 'select pg_sleep(5.033)');
    expect(await running).toBeInstanceOf(Error);
    // At once: the pool hands out its most recently released connection first, and the failed statement's answer
    // can come before the connection's end is seen.
    expect((await sql<{ n: number }>`select 1 as n`.execute(db)).rows).toEqual([{ n: 1 }]);
  });
});
