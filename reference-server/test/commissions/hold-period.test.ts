import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { lifecycleShop } from './support';

const t = harnessPerFile();

describe('the hold period (commission_hold_days)', () => {
  it('is 0 by default (due at once) and is set by PATCH, bounded 0 to 365; min_payout_cents alongside', async () => {
    const s = await lifecycleShop(t.h);
    const first = await s.sell(10_000);
    expect((await s.list()).body.data[0]).toMatchObject({ id: first.id, status: 'due', kind: 'sale' });

    for (const bad of [-1, 366, 1.5, '30', null]) {
      const res = await s.settings({ commission_hold_days: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.message).toBe('commission_hold_days must be an integer from 0 to 365');
    }
    for (const bad of [-1, 1.5, 1_000_000_000_001, '5']) {
      const res = await s.settings({ min_payout_cents: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.message).toBe('min_payout_cents must be an integer from 0 to 1000000000000');
    }
    // A bad field with a good one changes nothing.
    expect((await s.settings({ commission_hold_days: 30, min_payout_cents: -5 })).status).toBe(400);
    const set = await s.settings({ commission_hold_days: 30, min_payout_cents: 5_000 });
    expect(set.status).toBe(200);
    expect(set.body.data.program).toMatchObject({ commission_hold_days: 30, min_payout_cents: 5_000 });
    // The commission made before the change keeps its due_at: still due.
    expect((await s.list()).body.data[0]).toMatchObject({ id: first.id, status: 'due' });
  });

  it('with 30 days: a sale is pending until created_at + 30 days on the server clock, then due and payable; a refund inside the hold reverses it for good', async () => {
    const s = await lifecycleShop(t.h);
    expect((await s.settings({ commission_hold_days: 30 })).status).toBe(200);
    const kept = await s.sell(10_000);
    const refunded = await s.sell(5_000);
    const [second, first] = (await s.list()).body.data;
    expect(first).toMatchObject({ id: kept.id, status: 'pending', amount_cents: 2_000 });
    expect(Date.parse(first.due_at) - Date.parse(first.created_at)).toBe(30 * 86_400_000);
    expect(second).toMatchObject({ id: refunded.id, status: 'pending', amount_cents: 1_000 });
    expect(await s.figures()).toEqual({
      due_cents: {},
      pending_cents: { USD: 3_000 },
      held_cents: {},
      paid_cents: {},
      reversed_cents: {},
      balance_cents: {},
    });
    // Nothing is payable during the hold: no payout is recorded.
    expect((await s.payout()).status).toBe(409);

    // A refund inside the hold reverses it.
    expect((await s.refund(refunded.transactionId)).status).toBe(200);
    await s.days(29);
    expect((await s.list('?status=pending')).body.data.map((c: { id: number }) => c.id)).toEqual([kept.id]);
    expect((await s.payout()).status).toBe(409);

    // Thirty days on: due, in the balance, paid by the next payout; the reversed one never becomes due.
    await s.days(1);
    const after = (await s.list()).body.data;
    expect(after.find((c: { id: number }) => c.id === kept.id).status).toBe('due');
    expect(after.find((c: { id: number }) => c.id === refunded.id).status).toBe('reversed');
    expect(await s.figures()).toEqual({
      due_cents: { USD: 2_000 },
      pending_cents: {},
      held_cents: {},
      paid_cents: {},
      reversed_cents: { USD: 1_000 },
      balance_cents: { USD: 2_000 },
    });
    expect((await s.payout()).body.data.totals).toEqual({ USD: { amount_cents: 2_000, commissions: 1, clawbacks: 0, carried_cents: 0 } });
    await s.days(60);
    const final = (await s.list()).body.data;
    expect(final.map((c: { status: string }) => c.status)).toEqual(['reversed', 'paid']);
    expect((await s.payout()).status).toBe(409);
  });

  it('approving a pending commission makes it due now; declining one keeps it out of every figure', async () => {
    const s = await lifecycleShop(t.h);
    await s.settings({ commission_hold_days: 14 });
    const a = await s.sell(10_000);
    const b = await s.sell(20_000);
    expect((await s.approve(a.id, 'member')).status).toBe(403);
    const approved = await s.approve(a.id);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ id: a.id, status: 'due', decided_at: expect.any(String) });
    expect(approved.body.data.due_at).toBe(approved.body.data.decided_at);
    // Idempotent.
    expect((await s.approve(a.id)).body.data).toMatchObject({ status: 'due', due_at: approved.body.data.due_at });
    const declined = await s.decline(b.id, 'fraud');
    expect(declined.body.data).toMatchObject({ status: 'declined', decline_reason: 'fraud' });
    expect(await s.figures()).toEqual({
      due_cents: { USD: 2_000 },
      pending_cents: {},
      held_cents: {},
      paid_cents: {},
      reversed_cents: {},
      balance_cents: { USD: 2_000 },
    });
    expect((await s.approve(b.id)).status).toBe(409);
    await s.days(30);
    expect((await s.payout()).body.data.totals).toEqual({ USD: { amount_cents: 2_000, commissions: 1, clawbacks: 0, carried_cents: 0 } });
    // Paid: neither decision applies any more.
    const late = await s.decline(a.id);
    expect(late.status).toBe(409);
    expect(late.body.error.details).toEqual({ status: 'paid' });
  });
});
