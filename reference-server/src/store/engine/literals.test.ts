import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { inlined } from './literals';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

const query = (text: string, parameters: unknown[]) => CompiledQuery.raw(text, parameters);

describe('values written in as literals', () => {
  it('quotes strings as pg does, arrays element by element, and everything else as its text', () => {
    expect(inlined(query('select $1, $2, $3, $4, $5', ["it's", 'a\\b', 42, null, true]))).toBe(
      "select 'it''s',  E'a\\\\b', '42', null, 'true'",
    );
    expect(inlined(query('select $1::text[]', [['a"b', 'c\\d', null, 7]]))).toBe(`select  E'{"a\\\\"b","c\\\\\\\\d",NULL,"7"}'::text[]`);
    // `$10` is the tenth value, not the first followed by a zero.
    const ten = Array.from({ length: 10 }, (_, index) => index + 1);
    expect(inlined(query('select $10, $1', ten))).toBe("select '10', '1'");
  });

  it("passes over the text's own plain constants and quoted names, and refuses what it cannot read for certain", () => {
    expect(inlined(query(`select 'a$1b', "col$1" from t where x = $1`, [5]))).toBe(`select 'a$1b', "col$1" from t where x = '5'`);
    expect(inlined(query("select 'it''s $1', $1", [5]))).toBe("select 'it''s $1', '5'");
    for (const text of [
      "select E'\\n', $1",
      "select 'a\\b', $1",
      'select $1 -- $2',
      'select /* $2 */ $1',
      'select $$x$$, $1',
      'select $2',
    ]) {
      expect(inlined(query(text, [1]))).toBeUndefined();
    }
    // Values that pg would not send as plain text, or that would cut the text short.
    for (const value of [Buffer.from('x'), new Date(0), { a: 1 }, 'nul\0byte', ['nul\0byte'], [[1]]]) {
      expect(inlined(query('select $1', [value]))).toBeUndefined();
    }
    // A text without values is itself.
    expect(inlined(query('commit', []))).toBe('commit');
  });
});

describe.runIf(url.startsWith('postgres'))('values written in as literals, on PostgreSQL', () => {
  it('mean exactly what the same values sent as parameters mean, whatever characters they hold', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    await sql`create table literal_probe (id int8, label text, amount int8, flag bool, tags text[])`.execute(db);
    const hostile = [
      "'); drop table literal_probe; --",
      "\\'; select 1; --",
      'back\\slash and \\\\ two',
      '$1 $$ $tag$ dollar',
      '"quoted" {braces,} and, commas',
      'ünïcødé 🦄 and \u2028 line separator',
      'semi; colon',
      '',
    ];
    const insert = 'insert into literal_probe (id, label, amount, flag, tags) values ($1, $2, $3, $4, $5)';
    for (const [index, label] of hostile.entries()) {
      const values = [index, label, -9_007_199_254_740_991, index % 2 === 0, [label, null, 'x']];
      await db.executeQuery(query(insert, values));
      const text = inlined(query(insert, [index + 100, ...values.slice(1)]));
      expect(text).toBeDefined();
      await db.executeQuery(query(text!, []));
    }
    const rows = (
      await sql<{ id: number; label: string; amount: number; flag: boolean; tags: (string | null)[] }>`
      select id, label, amount, flag, tags from literal_probe order by id`.execute(db)
    ).rows;
    // Every value written in reads back as the parameter of the same value did, and the table is still there.
    expect(rows).toHaveLength(hostile.length * 2);
    const byParameter = rows.filter((row) => row.id < 100);
    const byLiteral = rows.filter((row) => row.id >= 100);
    expect(byLiteral.map(({ id: _, ...row }) => row)).toEqual(byParameter.map(({ id: _, ...row }) => row));
    expect(byLiteral.map((row) => row.label)).toEqual(hostile);
  });
});
