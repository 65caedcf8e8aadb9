import { afterEach, describe, expect, it } from 'vitest';
import { compiled, compiledFamily, insertRow } from './compiled';
import { openStore, uniqueSchemaName, type Store } from '../db';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

const open = async () => (store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true }));

describe(`compiled queries on ${url.split(':')[0]}`, () => {
  it('builds a query once and binds fresh values on every run, in and out of a transaction', async () => {
    const { db } = await open();
    let builds = 0;
    const byEmail = compiled<{ email: string }, { id: number; email: string }>((db, $) => {
      builds++;
      return db.selectFrom('accounts').select(['id', 'email']).where('email', '=', $('email'));
    });
    const a = await insertRow(db, 'accounts', { email: 'a@example.test', blocked: 0, created_at: 1 }, true);
    const b = await insertRow(db, 'accounts', { email: 'b@example.test', blocked: 0, created_at: 2 }, true);
    expect((await byEmail(db, { email: 'a@example.test' })).rows).toEqual([{ id: a, email: 'a@example.test' }]);
    expect((await byEmail(db, { email: 'b@example.test' })).rows).toEqual([{ id: b, email: 'b@example.test' }]);
    await db.transaction().execute(async (trx) => {
      expect((await byEmail(trx, { email: 'a@example.test' })).rows).toEqual([{ id: a, email: 'a@example.test' }]);
    });
    expect((await byEmail(db, { email: 'nobody@example.test' })).rows).toEqual([]);
    expect(builds).toBe(1);
  });

  it('keeps one query per shape, and an insert names only the columns given', async () => {
    const { db } = await open();
    const shapes: string[] = [];
    const blockedOr = compiledFamily<{ id: number; at: number }, unknown, boolean>((db, $, block) => {
      shapes.push(String(block));
      return db
        .updateTable('accounts')
        .set(block ? { blocked: 1, created_at: $('at') } : { created_at: $('at') })
        .where('id', '=', $('id'));
    });
    const id = await insertRow(db, 'accounts', { email: 'c@example.test', blocked: 0, created_at: 1 }, true);
    await blockedOr(db, 'keep', false, { id, at: 5 });
    await blockedOr(db, 'keep', false, { id, at: 6 });
    expect(await db.selectFrom('accounts').select(['blocked', 'created_at']).where('id', '=', id).executeTakeFirst()).toEqual({
      blocked: 0,
      created_at: 6,
    });
    await blockedOr(db, 'block', true, { id, at: 7 });
    expect(await db.selectFrom('accounts').select(['blocked', 'created_at']).where('id', '=', id).executeTakeFirst()).toEqual({
      blocked: 1,
      created_at: 7,
    });
    expect(shapes).toEqual(['false', 'true']);
  });

  it('refuses to run with a named value missing instead of binding undefined', async () => {
    const { db } = await open();
    const byId = compiled<{ id: number }, unknown>((db, $) => db.selectFrom('accounts').selectAll().where('id', '=', $('id')));
    await expect(byId(db, {} as { id: number })).rejects.toThrow('no value for id in a compiled query');
  });
});
