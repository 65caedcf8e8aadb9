import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { lifecycleShop } from './support';

const t = harnessPerFile();
const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((c) => c.id);

describe('the commission list', () => {
  it('pages newest first by an opaque cursor, and new commissions never shift the pages after the first', async () => {
    const s = await lifecycleShop(t.h);
    const made: number[] = [];
    for (let i = 1; i <= 5; i++) made.push((await s.sell(1_000 * i)).id);
    const newest = [...made].reverse();
    const first = await s.list('?limit=2');
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual(newest.slice(0, 2));
    expect(first.body.data[0]).toEqual({
      id: newest[0],
      partner_id: s.jane.id,
      sale_id: expect.any(Number),
      transaction_id: expect.stringMatching(/^txn_partners_/),
      kind: 'sale',
      amount_cents: 1_000,
      currency: 'USD',
      status: 'due',
      due_at: expect.any(String),
      created_at: expect.any(String),
      paid_at: null,
      payout_id: null,
      reversed_at: null,
      decided_by_account_id: null,
      decided_at: null,
      decline_reason: null,
    });
    await s.sell(9_000);
    const second = await s.list(`?limit=2&cursor=${first.body.next_cursor}`);
    expect(ids(second)).toEqual(newest.slice(2, 4));
    const third = await s.list(`?limit=2&cursor=${second.body.next_cursor}`);
    expect(ids(third)).toEqual(newest.slice(4));
    expect(third.body.next_cursor).toBeNull();
    expect((await s.list()).body.data).toHaveLength(6);
  });

  it('filters by status as the clock has it, by partner and by dates', async () => {
    const s = await lifecycleShop(t.h);
    const due = await s.sell(10_000, 'jane');
    await s.settings({ commission_hold_days: 7 });
    const pending = await s.sell(10_000, 'bob');
    const reversed = await s.sell(10_000, 'jane');
    await s.refund(reversed.transactionId);
    const declined = await s.sell(10_000, 'bob');
    await s.decline(declined.id);
    const paid = await s.sell(10_000, 'jane');
    await s.approve(paid.id);
    await s.payout(s.jane.id);
    const adjustment = (await s.adjust({ amount_cents: 300, currency: 'EUR', reason: 'bonus' }, s.bob.id)).body.data;

    const by = async (query: string) => ids(await s.list(query));
    expect(await by('?status=pending')).toEqual([pending.id]);
    expect(await by('?status=due')).toEqual([adjustment.id]);
    expect(await by('?status=paid')).toEqual([paid.id, due.id]);
    expect(await by('?status=reversed')).toEqual([reversed.id]);
    expect(await by('?status=declined')).toEqual([declined.id]);
    expect(await by('?status=held')).toEqual([]);
    expect(await by(`?partner_id=${s.bob.id}`)).toEqual([adjustment.id, declined.id, pending.id]);
    expect(await by(`?partner_id=${s.bob.id}&status=pending`)).toEqual([pending.id]);
    const today = new Date((await t.h.control.clock({ advance_seconds: 0 })).now).toISOString().slice(0, 10);
    expect(await by(`?from=${today}&to=${today}`)).toHaveLength(6);
    expect(await by('?to=2000-01-01')).toEqual([]);
    expect(await by('?from=2999-01-01')).toEqual([]);
    // A week on, the pending one is due.
    await s.days(7);
    expect(await by('?status=pending')).toEqual([]);
    expect(await by('?status=due')).toEqual([adjustment.id, pending.id]);
  });

  it('refuses bad parameters with the catalogue message, and lists nothing of another program or the test partner', async () => {
    const s = await lifecycleShop(t.h);
    await s.sell(1_000);
    const cases: [string, number, string][] = [
      ['?status=owed', 400, 'status must be one of: pending, held, due, paid, reversed, declined'],
      ['?limit=0', 400, 'limit must be an integer from 1 to 100'],
      ['?limit=101', 400, 'limit must be an integer from 1 to 100'],
      ['?limit=abc', 400, 'limit must be an integer from 1 to 100'],
      ['?cursor=nope', 400, 'cursor must be a next_cursor this list answered'],
      ['?from=yesterday', 400, 'from and to must be dates (YYYY-MM-DD) or ISO 8601 date-times, from not after to'],
      ['?from=2025-02-01&to=2025-01-01', 400, 'from and to must be dates (YYYY-MM-DD) or ISO 8601 date-times, from not after to'],
      ['?partner_id=0', 400, 'partner_id must be a positive integer'],
      ['?partner_id=999999', 404, 'Partner not found'],
    ];
    for (const [query, status, message] of cases) {
      const res = await s.list(query);
      expect(res.status, query).toBe(status);
      expect(res.body.error.message, query).toBe(message);
    }
    const other = await lifecycleShop(t.h);
    expect((await other.list()).body.data).toEqual([]);
    expect((await s.list(`?partner_id=${other.jane.id}`)).status).toBe(404);
    // Any member reads the list.
    expect(ids(await s.list('', 'member'))).toHaveLength(1);
  });

  it('GET /api/v1/commissions answers the same with the program key', async () => {
    const s = await lifecycleShop(t.h);
    await s.sell(1_000);
    await s.sell(2_000, 'bob');
    const keyed = (query: string, key = s.key) => t.h.request('GET', `/api/v1/commissions${query}`, { key });
    const page = await keyed('?limit=1');
    expect(page.status).toBe(200);
    const session = await s.list('?limit=1');
    expect(page.body).toEqual(session.body);
    const next = await keyed(`?limit=1&cursor=${page.body.next_cursor}`);
    expect(ids(next)).toEqual(ids(await s.list(`?limit=1&cursor=${session.body.next_cursor}`)));
    expect((await keyed(`?partner_id=${s.bob.id}`)).body.data).toHaveLength(1);
    expect((await keyed('?status=owed')).status).toBe(400);
    expect((await keyed('', 'svc_live_wrong')).status).toBe(401);
  });
});
