import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DeferredInserts, rowValues } from './deferred-inserts';
import { OTHER, READ } from './statement';

/** What `write` sends, without a database. */
async function written(held: DeferredInserts, literals = false): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  await held.write(async (query) => {
    queries.push(query);
    return { rows: [] };
  }, literals);
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
    // PostgreSQL: tables apart share one statement (one round trip), each insert's parameters numbered on.
    expect(queries.map((q) => [q.sql, q.parameters])).toEqual([
      [
        'with w0 as (insert into "clicks" ("click_id", "created_at") values ($1, $2), ($3, $4)) ' +
          'insert into "events" ("type", "occurred_at") values ($5, $6), ($7, $8)',
        ['a', 1, 'b', 2, 'click', 1, 'click', 2],
      ],
    ]);
    expect(held.empty).toBe(true);
    expect(await written(held)).toEqual([]);
  });

  it('on PostgreSQL never puts two statements of one table in one, nor more parameters than the limit; held upserts each alone', async () => {
    const held = new DeferredInserts('numbered');
    held.holdAll = true;
    const upsert = (counter: string, n: number) =>
      CompiledQuery.raw(
        `insert into "daily_metrics" ("day", "${counter}") values ($1, $2) on conflict ("day") do update set "${counter}" = "daily_metrics"."${counter}" + $2`,
        ['d', n],
      );
    held.add('events', { occurred_at: 1 });
    held.holdQuery('daily_metrics', upsert('clicks', 1));
    held.holdQuery('daily_metrics', upsert('leads', 2));
    const queries = await written(held);
    // The upserts (a batch's metrics) each a statement of their own, in the order held: their rows are locked so.
    expect(queries.map((q) => [q.sql, q.parameters])).toEqual([
      ['insert into "events" ("occurred_at") values ($1)', [1]],
      [upsert('clicks', 1).sql, ['d', 1]],
      [upsert('leads', 2).sql, ['d', 2]],
    ]);

    // 40,000 parameters of one table: two inserts of 30,000 and 10,000, the second with the next table's.
    for (let n = 0; n < 40_000; n++) held.add('events', { occurred_at: n });
    held.add('clicks', { click_id: 'a' });
    const big = await written(held);
    expect(big.map((q) => q.parameters.length)).toEqual([30_000, 10_001]);
    expect(big[1]!.sql).toMatch(/^with w0 as \(insert into "events" .* insert into "clicks" \("click_id"\) values \(\$10001\)$/);
  });

  it("with the batch's commit (PostgreSQL), writes the values in, and the parameters of what it packs with them", async () => {
    const held = new DeferredInserts('numbered');
    const conversion = (rows: unknown[][]) => CompiledQuery.raw('update "customers" set "status" = $2 where "id" = $1', rows[0]);
    held.add('clicks', { click_id: "it's $1; --", created_at: 1 });
    held.holdStatement('customers', 'conversion', [7, 'x'], conversion);
    const [all] = await written(held, true);
    // The update's own `$1` and `$2` are written in too; a `$1` inside a value stays data.
    expect([all!.sql, all!.parameters]).toEqual([
      `with w0 as (insert into "clicks" ("click_id", "created_at") values ('it''s $1; --', '1')) ` +
        `update "customers" set "status" = 'x' where "id" = '7'`,
      [],
    ]);

    // A value that cannot be a literal (a Buffer): that insert takes parameters, numbered past none for the literals.
    held.add('clicks', { click_id: '$1', created_at: 2 });
    held.holdStatement('customers', 'conversion', [8, 'y'], conversion);
    held.add('events', { type: 'click', meta: Buffer.from('x') });
    const [mixed] = await written(held, true);
    expect([mixed!.sql, mixed!.parameters]).toEqual([
      `with w0 as (insert into "clicks" ("click_id", "created_at") values ('$1', '2')), ` +
        `w1 as (update "customers" set "status" = $2 where "id" = $1) insert into "events" ("type", "meta") values ($3, $4)`,
      [8, 'y', 'click', Buffer.from('x')],
    ]);
  });

  it('groups rows by their defined columns in their order: fewer, more or reordered columns make a group of their own', async () => {
    const held = new DeferredInserts('question');
    held.add('events', { type: 'a', occurred_at: 1 });
    held.add('events', { type: 'b' });
    held.add('events', { type: 'c', occurred_at: 3, source: 'api' });
    held.add('events', { occurred_at: 4, type: 'd' });
    held.add('events', { type: 'e', occurred_at: 5, source: undefined });
    const queries = await written(held);
    expect(queries.map((q) => [q.sql, q.parameters])).toEqual([
      ['insert into "events" ("type", "occurred_at") values (?, ?), (?, ?)', ['a', 1, 'e', 5]],
      ['insert into "events" ("type") values (?)', ['b']],
      ['insert into "events" ("type", "occurred_at", "source") values (?, ?, ?)', ['c', 3, 'api']],
      ['insert into "events" ("occurred_at", "type") values (?, ?)', [4, 'd']],
    ]);
  });

  it('on SQLite, in statements of a multiple of 8 rows up to 64, then the rest (few texts, few statements)', async () => {
    const held = new DeferredInserts('question');
    for (let n = 0; n < 100; n++) held.add('events', { occurred_at: n });
    const queries = await written(held);
    expect(queries.map((q) => q.parameters.length)).toEqual([64, 32, 4]);
    const batch = new DeferredInserts('question');
    for (let n = 0; n < 27; n++) batch.add('events', { occurred_at: n });
    expect((await written(batch)).map((q) => q.parameters.length)).toEqual([24, 3]);
    const few = new DeferredInserts('question');
    for (let n = 0; n < 3; n++) few.add('events', { occurred_at: n });
    expect((await written(few)).map((q) => q.sql)).toEqual(['insert into "events" ("occurred_at") values (?), (?), (?)']);
    expect(queries.flatMap((q) => q.parameters)).toEqual(Array.from({ length: 100 }, (_, n) => n));
  });

  it("on SQLite, writes a held statement's rows as bound values, 64 rows a statement, each checked on its own", async () => {
    const change = rowValues(['id', 'keep'], 'update "customers" set "status" = \'x\' from v where "customers"."id" = v.id');
    const held = new DeferredInserts('question');
    for (let n = 0; n < 70; n++) held.holdStatement('customers', 'change', [n, n % 2 === 0 ? undefined : true], change, { each: true });
    const counts: number[] = [];
    const queries: CompiledQuery[] = [];
    await held.write(async (query) => {
      queries.push(query);
      counts.push(query.parameters.length / 2);
      return { rows: [], numAffectedRows: BigInt(query.parameters.length / 2) };
    });
    expect(counts).toEqual([64, 6]);
    expect(queries[1]!.sql).toBe(
      'with v(id, keep) as (values (?, ?), (?, ?), (?, ?), (?, ?), (?, ?), (?, ?)) update "customers" set "status" = \'x\' from v where "customers"."id" = v.id',
    );
    // As JSON gave them to SQLite: a boolean as 1, a value left undefined as null.
    expect(queries[1]!.parameters).toEqual([64, null, 65, 1, 66, null, 67, 1, 68, null, 69, 1]);

    // A chunk that changed fewer rows than it held fails the batch.
    held.holdStatement('customers', 'change', [1, 1], change, { each: true });
    await expect(held.write(async () => ({ rows: [], numAffectedRows: 0n }))).rejects.toThrow(/changed 0 of 1 rows/);
  });

  it('refuses a table or column that is not a plain identifier', () => {
    const held = new DeferredInserts('question');
    expect(() => held.add('events"; drop table events; --', { a: 1 })).toThrow(/not a plain identifier/);
    expect(() => held.add('events', { 'a" = 1': 1 })).toThrow(/not a plain identifier/);
  });

  it('lets only a plain write of another table run before the held rows', () => {
    const held = new DeferredInserts('numbered');
    held.add('events', { occurred_at: 1 });
    expect(held.mustWriteBefore({ kind: 'write', table: 'sales' })).toBe(false);
    expect(held.mustWriteBefore({ kind: 'write', table: 'customers' })).toBe(false);
    // The same table, anything that reads, and anything else (a raw text, `commit`) wait for the held rows.
    expect(held.mustWriteBefore({ kind: 'write', table: 'events' })).toBe(true);
    expect(held.mustWriteBefore(READ)).toBe(true);
    expect(held.mustWriteBefore(OTHER)).toBe(true);
  });
});
