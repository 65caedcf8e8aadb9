import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertClick } from '../clicks';
import { insertRow } from './compiled';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { behindSavepoint, writeTransaction } from './group-commit';
import { bumpDailyMetrics, bumpProgramMetrics, readProgramMetrics } from './metrics';
import { findSaleByTransactionId, insertSale } from '../sales';
import { endConnectionWhileItSleeps, sentTexts } from '../postgres.fixture';
import { saleRow } from '../rows.fixture';
import { isUniqueViolation } from '../unique-violation';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await store?.close();
});

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

const sale = (transactionId: string) => saleRow(transactionId);

/** A request's writes: one event and its metrics, failing after both when `fail` is set. */
const request = (db: Store['db'], n: number, fail = false) =>
  writeTransaction(db, async (trx) => {
    await insertRow(trx, 'events', event(n));
    await bumpProgramMetrics(trx, 1, ['clicks'], ['last_click_at'], n);
    await bumpDailyMetrics(trx, { programId: 1, day: '2026-11-25', partnerId: 1 }, 'clicks');
    if (fail) throw new Error(`request ${n} failed`);
    return n;
  });

describe(`group commit on ${url.split(':')[0]}`, () => {
  it('a failing request in a batch rolls back its own writes and metrics only; the others commit, summed exactly', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    // Queued in one turn of the event loop: one batch.
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => request(db, n, n === 3)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('request 3 failed'));

    const events = await db.selectFrom('events').select('click_id').orderBy('id').execute();
    expect(events.map((e) => e.click_id)).toEqual(['clk_1', 'clk_2', 'clk_4', 'clk_5']);
    const metrics = await readProgramMetrics(db, 1);
    // The last "last seen" in batch order is the last successful request's (request 5), as if each had written it.
    expect(metrics).toMatchObject({ clicks: 4, last_click_at: 5 });
    const daily = await db.selectFrom('daily_metrics').select(['clicks']).where('program_id', '=', 1).execute();
    // One row per shard that counted (store/engine/metrics.ts); the day's clicks are their sum.
    expect(daily.reduce((sum, row) => sum + row.clicks, 0)).toBe(4);
  });

  it('batches one after another add up, and a batch of failures changes nothing', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    await Promise.all([1, 2].map((n) => request(db, n)));
    await Promise.allSettled([3, 4].map((n) => request(db, n, true)));
    await Promise.all([5, 6, 7].map((n) => request(db, n)));
    expect(await readProgramMetrics(db, 1)).toMatchObject({ clicks: 5, last_click_at: 7 });
    expect(await db.selectFrom('events').select('click_id').orderBy('id').execute()).toHaveLength(5);
  });

  it.runIf(url.startsWith('postgres'))(
    'a request of a batch that PostgreSQL fails to break a deadlock runs again in the next batch, and succeeds',
    async () => {
      store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
      const { db } = store;
      const [a, b] = await Promise.all(
        ['a@example.test', 'b@example.test'].map((email) =>
          db.insertInto('accounts').values({ email, blocked: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow(),
        ),
      );
      const touch = (trx: Store['db'], id: number) =>
        trx
          .updateTable('accounts')
          .set({ created_at: sql`created_at + 1` })
          .where('id', '=', id)
          .execute();
      let aLocked!: () => void;
      const locked = new Promise<void>((resolve) => (aLocked = resolve));
      let runs = 0;
      // The batch locks a, and wants b once a transaction outside the group commit (a refund, say) holds b; that
      // one then wants a. The batch waits first, so PostgreSQL fails the batch's statement.
      const batched = writeTransaction(db, async (trx) => {
        runs++;
        await touch(trx, a!.id);
        aLocked();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await touch(trx, b!.id);
        return 'batched';
      });
      await locked;
      const outside = db.transaction().execute(async (trx) => {
        await touch(trx, b!.id);
        await new Promise((resolve) => setTimeout(resolve, 400));
        await touch(trx, a!.id);
        return 'outside';
      });
      expect(await Promise.all([batched, outside])).toEqual(['batched', 'outside']);
      expect(runs).toBe(2);
      const rows = await db.selectFrom('accounts').select('created_at').orderBy('id').execute();
      expect(rows).toEqual([{ created_at: 2 }, { created_at: 2 }]);
    },
  );
});

describe(`held inserts in a combined batch on ${url.split(':')[0]}`, () => {
  it('a later request of the batch reads the rows an earlier one inserted, as if written at once', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const seen: number[] = [];
    // Queued in one turn of the event loop: one batch.
    await Promise.all(
      [1, 2, 3].map((n) =>
        writeTransaction(db, async (trx) => {
          await insertRow(trx, 'events', event(n));
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
        await insertRow(trx, 'events', { ...event(now), click_id: clickId });
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
    // Not held: an insert that returns its id runs at once.
    const record = (transactionId: string) => writeTransaction(db, (trx) => insertRow(trx, 'sales', sale(transactionId), true));
    // Connections ready in the pool (PostgreSQL), so the lookup below is not slowed by opening one.
    await Promise.all([1, 2, 3].map(() => findSaleByTransactionId(db, 'none')));
    // The second sale breaks the unique transaction id. Its caller looks the
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

describe.runIf(url.startsWith('postgres'))('the commit of a combined batch on PostgreSQL', () => {
  /** Long enough to be found running; its duration is this test's own (`endConnectionWhileItSleeps`). */
  const SLEEP = 'select pg_sleep(5.011)';
  it('sends a batch of clicks in one round trip, and fails every request, running none again, when its outcome is unknown', async () => {
    // What the driver is asked to send, one text per round trip (the real driver, watched).
    const driver = vi.spyOn(pg.Client.prototype, 'query');
    // The store's listener (store/db.ts) may send its LISTEN while the batch runs, on a connection of its own.
    const sent = () => sentTexts(driver.mock.calls).filter((text) => !text.startsWith('LISTEN'));
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    let runs = 0;
    let endConnection = false;
    const click = (n: number) =>
      writeTransaction(db, async (trx) => {
        runs++;
        // A statement held with the batch's rows, to be running when the connection ends (below): inside the text
        // that holds the commit, so that nobody can say whether it committed. Held first, so that it comes early in
        // the text, in the part of it PostgreSQL shows.
        if (endConnection && n === 11) {
          trx.batch.held!.holdStatement('events', 'wait', [], () => CompiledQuery.raw(SLEEP));
        }
        await insertRow(trx, 'events', event(n));
        return n;
      });
    driver.mockClear();
    expect(await Promise.all([1, 2, 3].map(click))).toEqual([1, 2, 3]);
    // `begin`, the three events (one insert) and the `commit`: one text.
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toMatch(/^\/\* svc: joined \*\/ begin; insert into "events" .*; commit$/);

    endConnection = true;
    runs = 0;
    const settled = Promise.allSettled([1, 2, 3].map((n) => click(n + 10)));
    // The server ends the batch's connection (a restart, an operator) while the text runs.
    await endConnectionWhileItSleeps(url, SLEEP);
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(runs).toBe(3);
    expect(await db.selectFrom('events').select('occurred_at').orderBy('occurred_at').execute()).toEqual([
      { occurred_at: 1 },
      { occurred_at: 2 },
      { occurred_at: 3 },
    ]);
  });
});

describe.runIf(url.startsWith('postgres'))('batches side by side on PostgreSQL', () => {
  it('starts the next batch while one waits in its commit, on counter rows of its own; the counts add up', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    // One batch alone: it runs in the first lane, and makes that lane's counter row.
    await request(db, 1);
    const [{ shard }] = (await db.selectFrom('program_metrics').select('shard').where('program_id', '=', 1).execute()) as [
      { shard: number },
    ];
    const outside = new pg.Client({ connectionString: url });
    await outside.connect();
    try {
      const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
      await outside.query(`set search_path = "${schema}"`);
      // Another transaction holds the first lane's counter row: the next batch there waits in its commit's text.
      await outside.query('begin');
      await outside.query('select * from program_metrics where program_id = 1 and shard = $1 for update', [shard]);
      const waiting = request(db, 2);
      const { pid } = (await outside.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
      for (let blocked = 0; blocked === 0;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const { rows } = await outside.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
          [pid],
        );
        blocked = rows[0]!.n;
      }
      // Meanwhile a batch starts, writes its own shard's row of the same program and day, and commits.
      expect(await request(db, 3)).toBe(3);
      await outside.query('commit');
      expect(await waiting).toBe(2);
    } finally {
      await outside.end();
    }
    expect(await readProgramMetrics(db, 1)).toMatchObject({ clicks: 3 });
    const daily = await db.selectFrom('daily_metrics').select(['shard', 'clicks']).where('program_id', '=', 1).execute();
    expect(daily).toHaveLength(2);
    expect(daily.reduce((sum, row) => sum + row.clicks, 0)).toBe(3);
  });
});

describe(`savepoints in a combined batch on ${url.split(':')[0]}`, () => {
  const step = (db: Store['db'], n: number, inside: 'fails before writing' | 'fails after writing' | 'passes') =>
    writeTransaction(db, async (trx) => {
      await insertRow(trx, 'events', event(n));
      const result = await behindSavepoint(trx, 'commission', async () => {
        if (inside === 'fails before writing') throw new Error(`step ${n} failed`);
        await insertRow(trx, 'events', event(n + 100));
        if (inside === 'fails after writing') throw new Error(`step ${n} failed`);
        return n;
      });
      return result.ok ? result.value : (result.error as Error).message;
    });

  it('a step that fails before writing is handed back; one that fails after writing rolls back alone', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    // One batch: the second request's step has nothing to roll back, the third's has (the batch runs again apart).
    const results = await Promise.all([step(db, 1, 'passes'), step(db, 2, 'fails before writing'), step(db, 3, 'fails after writing')]);
    expect(results).toEqual([1, 'step 2 failed', 'step 3 failed']);
    const events = await db.selectFrom('events').select('occurred_at').orderBy('occurred_at').execute();
    expect(events.map((e) => e.occurred_at)).toEqual([1, 2, 3, 101]);
  });
});

describe(`ids taken in advance on ${url.split(':')[0]}`, () => {
  it("a batch's sales get the ids they were told, ascending; a rolled-back batch hands its ids out again or skips them, never twice", async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const record = (transactionId: string, fail = false) =>
      writeTransaction(db, async (trx) => {
        const id = await insertSale(trx, sale(transactionId));
        if (fail) throw new Error('rolled back');
        return id;
      });
    const first = await Promise.all(['t-1', 't-2', 't-3'].map((t) => record(t)));
    expect(first).toEqual([...first].sort((a, b) => a - b));
    // A batch whose only request fails: its sale is rolled back.
    await expect(record('t-4', true)).rejects.toThrow('rolled back');
    const second = await Promise.all(['t-5', 't-6'].map((t) => record(t)));
    expect(Math.min(...second)).toBeGreaterThan(Math.max(...first));
    const stored = await db.selectFrom('sales').select(['id', 'processor_event_id']).orderBy('id').execute();
    expect(stored.map((row) => [row.id, row.processor_event_id])).toEqual(
      [...first, ...second].map((id, index) => [id, ['t-1', 't-2', 't-3', 't-5', 't-6'][index]]),
    );
  });

  it.runIf(url.startsWith('postgres'))('two servers on one database take ids that never collide', async () => {
    const schema = uniqueSchemaName();
    store = await openStore(url, { pgSchema: schema, dropSchemaOnClose: true });
    const other = await openStore(url, { pgSchema: schema });
    try {
      const record = (db: Store['db'], transactionId: string) => writeTransaction(db, (trx) => insertSale(trx, sale(transactionId)));
      const ids = await Promise.all(Array.from({ length: 300 }, (_, n) => record(n % 2 === 0 ? store!.db : other.db, `t-${n}`)));
      expect(new Set(ids).size).toBe(300);
      const stored = await store.db.selectFrom('sales').select('id').execute();
      expect(stored.map((row) => row.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      await other.close();
    }
  });
});
