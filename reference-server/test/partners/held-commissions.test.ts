import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { holdCommissionsLocked } from './row-lock';
import { account, merchant } from './support';

const t = harnessPerFile();
const today = () => new Date().toISOString().slice(0, 10);
let sequence = 0;

/**
 * A merchant with partner Jane and her link, and customers who clicked Jane's link and signed up: `buy` reports
 * a sale of one of them later, so a sale can be attributed to Jane after she was suspended (a suspended partner's
 * links refuse new clicks).
 */
async function setup() {
  const m = await merchant(t.h);
  const key = m.program.api_token;
  const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
  const short = `jane-held-${m.program.id}`;
  await m.call('POST', '/links', { partner_id: jane.id, short_link: short });
  const customer = async () => {
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${short}` } });
    expect(click.status).toBe(200);
    const customerKey = `cust_held_${++sequence}`;
    const lead = await t.h.request('POST', '/api/v1/track/lead', {
      key,
      json: { click_id: click.body.click_id, customer_key: customerKey },
    });
    expect(lead.status).toBe(200);
    return customerKey;
  };
  const buy = async (customerKey: string, cents: number) => {
    const transactionId = `txn_held_${++sequence}`;
    const sale = await t.h.request('POST', '/api/v1/track/sale', {
      key,
      json: { transaction_id: transactionId, amount_cents: cents, currency: 'USD', customer_key: customerKey },
    });
    expect(sale.status).toBe(200);
    return { transactionId, commissionId: sale.body.commission_id as number };
  };
  const status = (s: 'active' | 'suspended', as = m.cookie) => m.call('PATCH', `/partners/${jane.id}`, { status: s }, as);
  const figures = async () => (await m.call('GET', '/partners')).body.data.partners[0].figures.commissions;
  const decide = (id: number, action: 'approve' | 'decline', json?: unknown, as = m.cookie) =>
    m.call('POST', `/commissions/${id}/${action}`, json, as);
  const refund = (transactionId: string) => t.h.request('POST', '/api/v1/track/refund', { key, json: { transaction_id: transactionId } });
  const payout = () => m.call('POST', '/payouts', { partner_id: jane.id, through: today() });
  const row = (id: number) => t.h.store.db.selectFrom('commissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { m, key, jane, customer, buy, status, figures, decide, refund, payout, row };
}

describe("a suspended partner's new commissions are held", () => {
  it('holds them (not due, not paid, not in the balance) until the merchant reactivates the partner, then they are due', async () => {
    const s = await setup();
    const before = await s.customer();
    const dueOne = await s.buy(before, 10_000);
    const later = await s.customer();
    const ownerId = (await t.h.request('GET', '/api/dashboard/session', { headers: { cookie: s.m.cookie } })).body.data.account_id;

    expect((await s.status('suspended')).status).toBe(200);
    const held = await s.buy(later, 5_000);
    expect((await s.row(held.commissionId)).status).toBe('held');
    expect(await s.figures()).toEqual({
      due_cents: { USD: 2_000 },
      held_cents: { USD: 1_000 },
      pending_cents: {},
      paid_cents: {},
      reversed_cents: {},
      balance_cents: { USD: 2_000 },
    });
    // A payout pays the due commission only; the held one is never paid.
    const paid = await s.payout();
    expect(paid.body.data.totals).toMatchObject({ USD: { commissions: 1, amount_cents: 2_000 } });
    expect((await s.row(held.commissionId)).paid_at).toBeNull();
    expect((await s.row(dueOne.commissionId)).paid_at).not.toBeNull();
    const csv = await t.h.app.inject({
      method: 'GET',
      url: `${s.m.base}/commissions.csv?from=${today()}&to=${today()}`,
      headers: { cookie: s.m.cookie },
    });
    expect(csv.body).toMatch(new RegExp(`\\r\\n${held.commissionId},${s.jane.id},Jane,[^\\r]*,1000,USD,held,`));

    // Reactivated: the held commission is due, recorded with who reactivated and when; the next payout pays it.
    expect((await s.status('active')).status).toBe(200);
    expect(await s.row(held.commissionId)).toMatchObject({ status: 'pending', hold_reason: null, decided_by_account_id: ownerId });
    expect((await s.figures()).due_cents).toEqual({ USD: 1_000 });
    expect((await s.payout()).body.data.totals).toMatchObject({ USD: { commissions: 1, amount_cents: 1_000 } });
  });

  it('reverses a held commission on refund; it is then neither held nor released', async () => {
    const s = await setup();
    const c = await s.customer();
    await s.status('suspended');
    const held = await s.buy(c, 5_000);
    expect((await s.refund(held.transactionId)).status).toBe(200);
    expect(await s.row(held.commissionId)).toMatchObject({ status: 'reversed', hold_reason: null });
    await s.status('active');
    expect((await s.row(held.commissionId)).status).toBe('reversed');
    expect(await s.figures()).toMatchObject({ due_cents: {}, held_cents: {}, reversed_cents: { USD: 1_000 }, balance_cents: {} });
  });

  it('releases each held commission exactly once when reactivations race (dashboard and program key), and pays it once', async () => {
    const s = await setup();
    const customers = [await s.customer(), await s.customer(), await s.customer()];
    await s.status('suspended');
    const held = [];
    for (const [i, c] of customers.entries()) held.push(await s.buy(c, 1_000 * (i + 1)));
    const member = await account(t.h, 'member@example.com', { programId: s.m.program.id, role: 'member' });
    const ownerId = (await t.h.request('GET', '/api/dashboard/session', { headers: { cookie: s.m.cookie } })).body.data.account_id;
    const memberId = (await t.h.request('GET', '/api/dashboard/session', { headers: { cookie: member } })).body.data.account_id;

    // On PostgreSQL the commissions are held locked until all three reactivations wait, so they overlap for certain.
    const lock = await holdCommissionsLocked(t.h.store, s.jane.id);
    const racing = Promise.all([
      s.status('active'),
      s.status('active', member),
      t.h.request('PATCH', `/api/v1/partners/${s.jane.id}`, { key: s.key, json: { status: 'active' } }),
    ]);
    await lock.waitForBlocked(3);
    await lock.release();
    expect((await racing).map((r) => r.status)).toEqual([200, 200, 200]);

    const rows = await Promise.all(held.map((h) => s.row(h.commissionId)));
    expect(rows.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    // One reactivation released them all, in one statement: one decider, one time.
    expect(new Set(rows.map((r) => `${r.decided_by_account_id}@${r.decided_at}`)).size).toBe(1);
    expect([ownerId, memberId, null]).toContain(rows[0]!.decided_by_account_id === null ? null : Number(rows[0]!.decided_by_account_id));
    expect(await s.figures()).toMatchObject({ due_cents: { USD: 1_200 }, held_cents: {}, balance_cents: { USD: 1_200 } });
    const paid = await s.payout();
    expect(paid.body.data.totals).toMatchObject({ USD: { commissions: 3, amount_cents: 1_200 } });
    expect((await s.payout()).status).toBe(409);
  });
});

describe('approving and declining a commission (owners only)', () => {
  it('approves a held commission now, idempotently, recorded with who and when', async () => {
    const s = await setup();
    const c = await s.customer();
    await s.status('suspended');
    const held = await s.buy(c, 5_000);
    const approved = await s.decide(held.commissionId, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      id: held.commissionId,
      partner_id: s.jane.id,
      amount_cents: 1_000,
      currency: 'USD',
      status: 'due',
      decided_by_account_id: expect.any(Number),
      decided_at: expect.any(String),
      decline_reason: null,
    });
    const again = await s.decide(held.commissionId, 'approve');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(approved.body.data);
    // Still suspended, but this one was approved: due, and reactivating later changes nothing about it.
    expect((await s.figures()).due_cents).toEqual({ USD: 1_000 });
    const decided = await s.row(held.commissionId);
    await t.h.control.clock({ advance_seconds: 60 });
    await s.status('active');
    expect(await s.row(held.commissionId)).toMatchObject({
      decided_at: decided.decided_at,
      decided_by_account_id: decided.decided_by_account_id,
    });
  });

  it('declines a held or due commission with a reason: never paid, in no figure, idempotent; a refund keeps it declined', async () => {
    const s = await setup();
    const due = await s.buy(await s.customer(), 10_000);
    const c = await s.customer();
    await s.status('suspended');
    const held = await s.buy(c, 5_000);
    for (const id of [due.commissionId, held.commissionId]) {
      const declined = await s.decide(id, 'decline', { reason: '  Self-referral  ' });
      expect(declined.status).toBe(200);
      expect(declined.body.data).toMatchObject({
        status: 'declined',
        decline_reason: 'Self-referral',
        decided_by_account_id: expect.any(Number),
      });
      expect((await s.decide(id, 'decline', { reason: 'Another reason' })).body.data.decline_reason).toBe('Self-referral');
    }
    await s.status('active');
    expect(await s.figures()).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: {},
      reversed_cents: {},
      balance_cents: {},
    });
    expect((await s.payout()).status).toBe(409);
    await s.refund(due.transactionId);
    expect((await s.row(due.commissionId)).status).toBe('declined');
  });

  it('answers 409 with the current status for a wrong transition, and changes nothing', async () => {
    const s = await setup();
    const sold = await s.buy(await s.customer(), 10_000);
    await s.payout();
    for (const action of ['approve', 'decline'] as const) {
      const res = await s.decide(sold.commissionId, action, { reason: 'Too late' });
      expect(res.status, action).toBe(409);
      expect(res.body.error).toEqual({
        status: 409,
        name: 'ConflictError',
        message: 'This commission cannot make that change from its current status',
        details: { status: 'paid' },
      });
    }
    const refunded = await s.buy(await s.customer(), 1_000);
    await s.refund(refunded.transactionId);
    expect((await s.decide(refunded.commissionId, 'approve')).body.error.details).toEqual({ status: 'reversed' });
    const declined = await s.buy(await s.customer(), 1_000);
    await s.decide(declined.commissionId, 'decline', { reason: 'No' });
    expect((await s.decide(declined.commissionId, 'approve')).body.error.details).toEqual({ status: 'declined' });
    expect((await s.row(sold.commissionId)).decided_at).toBeNull();
  });

  it('refuses members, bad ids and reasons, and commissions of another program, changing nothing', async () => {
    const s = await setup();
    const c = await s.customer();
    await s.status('suspended');
    const held = await s.buy(c, 5_000);
    const member = await account(t.h, 'member@example.com', { programId: s.m.program.id, role: 'member' });
    const byMember = await s.decide(held.commissionId, 'approve', undefined, member);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.message).toBe('Only a workspace owner can approve or decline a commission');
    expect((await s.decide(held.commissionId, 'decline', { reason: 'x' }, member)).status).toBe(403);
    for (const reason of [undefined, '', '   ', 'x'.repeat(501), 42]) {
      const res = await s.decide(held.commissionId, 'decline', reason === undefined ? {} : { reason });
      expect(res.status, String(reason)).toBe(400);
      expect(res.body.error.message).toBe('reason is required: 1 to 500 characters');
    }
    const badId = await s.m.call('POST', '/commissions/abc/approve');
    expect(badId.status).toBe(400);
    expect(badId.body.error.message).toBe('commissionId must be a positive integer');
    const other = await merchant(t.h, 'other.example');
    const foreign = await other.call('POST', `/commissions/${held.commissionId}/approve`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('Commission not found');
    expect(await s.row(held.commissionId)).toMatchObject({ status: 'held', decided_at: null });
  });
});
