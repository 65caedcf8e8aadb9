import { afterEach, describe, expect, it } from 'vitest';
import { findClick, insertClick } from '../clicks';
import { coalesced } from './coalesced';
import { openStore, uniqueSchemaName, type Store } from '../db';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
const postgres = url.startsWith('postgres');
let store: Store | undefined;
afterEach(async () => store?.close());

/** A lookup over a fixed table of rows that counts its statements. */
function countingLookup(rows: Record<string, number>) {
  const calls = { many: [] as string[][], one: 0 };
  const lookup = coalesced<string, { key: string; value: number }>({
    read: async (_db, keys) => {
      calls.many.push(keys);
      if (keys.includes('broken')) throw new Error('read failed');
      return keys.filter((key) => key in rows).map((key) => ({ key, value: rows[key]! }));
    },
    readOne: async (_db, key) => {
      calls.one++;
      return key in rows ? { key, value: rows[key]! } : undefined;
    },
    keyOf: (key) => key,
    keyOfRow: (row) => row.key,
  });
  return { lookup, calls };
}

describe(`coalesced lookups on ${url.split(':')[0]}`, () => {
  it.runIf(postgres)('keys asked for in one turn are read by one statement, each caller answered its own row', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { lookup, calls } = countingLookup({ a: 1, b: 2 });
    const answers = await Promise.all(['a', 'b', 'a', 'none'].map((key) => lookup(store!.db, key)));
    expect(answers).toEqual([{ key: 'a', value: 1 }, { key: 'b', value: 2 }, { key: 'a', value: 1 }, undefined]);
    expect(calls.many).toEqual([['a', 'b', 'none']]);
    // The next turn's keys are the next statement's.
    await lookup(store.db, 'b');
    expect(calls.many).toHaveLength(2);
  });

  it.runIf(postgres)('a failed read fails every caller of its statement, and the next turn reads again', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { lookup } = countingLookup({ a: 1 });
    const results = await Promise.allSettled([lookup(store.db, 'a'), lookup(store.db, 'broken')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await lookup(store.db, 'a')).toEqual({ key: 'a', value: 1 });
  });

  it('in a transaction (and on SQLite) each key is read at once, alone', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { lookup, calls } = countingLookup({ a: 1 });
    await store.db.transaction().execute(async (trx) => {
      expect(await Promise.all([lookup(trx, 'a'), lookup(trx, 'none')])).toEqual([{ key: 'a', value: 1 }, undefined]);
    });
    expect(calls).toEqual({ many: [], one: 2 });
    if (!postgres) {
      await Promise.all([lookup(store.db, 'a'), lookup(store.db, 'a')]);
      expect(calls).toEqual({ many: [], one: 4 });
    }
  });

  it("the store's real lookups find what was committed and nothing else", async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const click = (clickId: string) => ({ clickId, programId: 1, partnerId: 1, linkId: 1, isTest: false, now: 1 });
    await Promise.all(['c-1', 'c-2'].map((clickId) => insertClick(db, click(clickId))));
    const found = await Promise.all(['c-1', 'c-2', 'c-3', 'c-1'].map((clickId) => findClick(db, clickId)));
    expect(found.map((row) => row?.click_id)).toEqual(['c-1', 'c-2', undefined, 'c-1']);
  });
});
