import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { lifecycleShop } from './support';

const t = harnessPerFile();

describe('adjustments (bonuses and clawbacks)', () => {
  it('records a due commission of kind adjustment with no sale, in balances, the list, the CSV and the audit log', async () => {
    const s = await lifecycleShop(t.h);
    await s.settings({ commission_hold_days: 30 });
    const sale = await s.sell(10_000);
    const bonus = await s.adjust({ amount_cents: 500, currency: 'USD', reason: 'Launch bonus' });
    expect(bonus.status).toBe(201);
    expect(bonus.body.data).toMatchObject({
      partner_id: s.jane.id,
      sale_id: null,
      transaction_id: null,
      kind: 'adjustment',
      amount_cents: 500,
      currency: 'USD',
      status: 'due',
      paid_at: null,
    });
    expect(bonus.body.data.due_at).toBe(bonus.body.data.created_at);
    const clawback = await s.adjust({ amount_cents: -200, currency: 'USD', reason: 'Returned goods' });
    expect(clawback.body.data).toMatchObject({ amount_cents: -200, status: 'due', kind: 'adjustment' });
    // The sale's commission waits for its hold; both adjustments are due now.
    expect(await s.figures()).toEqual({
      due_cents: { USD: 300 },
      pending_cents: { USD: 2_000 },
      held_cents: {},
      paid_cents: {},
      reversed_cents: {},
      balance_cents: { USD: 300 },
    });
    const listed = (await s.list()).body.data;
    expect(listed.map((c: { id: number }) => c.id)).toEqual([clawback.body.data.id, bonus.body.data.id, sale.id]);
    const csv = await t.h.app.inject({
      method: 'GET',
      url: `${s.m.base}/commissions.csv?from=2000-01-01&to=2999-12-31`,
      headers: { cookie: s.m.cookie },
    });
    expect(csv.body).toMatch(
      new RegExp(`\\r\\n${bonus.body.data.id},${s.jane.id},Jane,jane@example.com,,,,500,USD,due,,[^,]+Z,,,,adjustment,[^,]+Z\\r\\n`),
    );
    expect(csv.body).toMatch(new RegExp(`\\r\\n${clawback.body.data.id},${s.jane.id},[^\\r]*,-200,USD,due,[^\\r]*,adjustment,`));
    const audit = await t.h.store.db.selectFrom('audit_log').selectAll().where('program_id', '=', s.m.program.id).orderBy('id').execute();
    const ownerEmail = (
      await t.h.store.db.selectFrom('accounts').select('email').where('id', '=', s.m.program.account_id).executeTakeFirstOrThrow()
    ).email;
    expect(audit.filter((a) => a.action === 'adjustment.created').map((a) => [a.target, a.actor, a.reason, JSON.parse(a.details)])).toEqual(
      [
        [`commission:${bonus.body.data.id}`, ownerEmail, 'Launch bonus', { partner_id: s.jane.id, amount_cents: 500, currency: 'USD' }],
        [
          `commission:${clawback.body.data.id}`,
          ownerEmail,
          'Returned goods',
          { partner_id: s.jane.id, amount_cents: -200, currency: 'USD' },
        ],
      ],
    );

    // The payout settles both adjustments (net 300) and leaves the pending sale alone.
    const payout = await s.payout();
    expect(payout.status).toBe(201);
    expect(payout.body.data.totals).toEqual({ USD: { amount_cents: 300, commissions: 2, clawbacks: 0, carried_cents: 0 } });
    expect((await s.figures()).balance_cents).toEqual({});
  });

  it('a clawback larger than what is due carries to the next payout, like a refund after payment', async () => {
    const s = await lifecycleShop(t.h);
    await s.sell(10_000);
    expect((await s.adjust({ amount_cents: -3_000, currency: 'USD', reason: 'Chargeback fee' })).status).toBe(201);
    expect((await s.figures()).balance_cents).toEqual({ USD: -1_000 });
    // Nothing settles while more is owed back than is due: no payout is recorded and the balance stays.
    expect((await s.payout()).status).toBe(409);
    expect((await s.figures()).balance_cents).toEqual({ USD: -1_000 });
    await s.sell(10_000);
    const payout = await s.payout();
    expect(payout.status).toBe(201);
    expect(payout.body.data.totals).toEqual({ USD: { amount_cents: 1_000, commissions: 3, clawbacks: 0, carried_cents: 0 } });
    expect(await s.figures()).toMatchObject({ due_cents: {}, balance_cents: {}, paid_cents: { USD: 1_000 } });
  });

  it('is for owners only and checks every field; a refusal records nothing', async () => {
    const s = await lifecycleShop(t.h);
    const count = async () =>
      Number(
        (
          await t.h.store.db
            .selectFrom('commissions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('program_id', '=', s.m.program.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const good = { amount_cents: 500, currency: 'USD', reason: 'Bonus' };
    const member = await s.adjust(good, s.jane.id, 'member');
    expect(member.status).toBe(403);
    expect(member.body.error.message).toBe('Only a workspace owner can record an adjustment');
    const cases: [unknown, string][] = [
      [{ ...good, amount_cents: 0 }, 'amount_cents must be a non-zero integer from -1000000000000 to 1000000000000'],
      [{ ...good, amount_cents: 1.5 }, 'amount_cents must be a non-zero integer from -1000000000000 to 1000000000000'],
      [{ ...good, amount_cents: -1_000_000_000_001 }, 'amount_cents must be a non-zero integer from -1000000000000 to 1000000000000'],
      [{ ...good, amount_cents: '500' }, 'amount_cents must be a non-zero integer from -1000000000000 to 1000000000000'],
      [{ ...good, currency: 'GBP' }, 'currency must be one of: USD, EUR, VND'],
      [{ ...good, reason: '' }, 'reason is required: 1 to 500 characters'],
      [{ ...good, reason: 'x'.repeat(501) }, 'reason is required: 1 to 500 characters'],
      [{ amount_cents: 500, currency: 'USD' }, 'reason is required: 1 to 500 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await s.adjust(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await s.adjust(good, 999_999)).status).toBe(404);
    const other = await lifecycleShop(t.h);
    expect((await s.adjust(good, other.jane.id)).status).toBe(404);
    expect(await count()).toBe(0);
    expect(await t.h.store.db.selectFrom('audit_log').selectAll().where('action', '=', 'adjustment.created').execute()).toEqual([]);
  });

  it('adjustments and payouts at the same time: every cent is paid once or still owed, on both stores', async () => {
    const s = await lifecycleShop(t.h);
    await s.sell(10_000);
    const calls = [
      s.adjust({ amount_cents: 100, currency: 'USD', reason: 'a' }),
      s.payout(),
      s.adjust({ amount_cents: -50, currency: 'USD', reason: 'b' }),
      s.payout(),
      s.adjust({ amount_cents: 700, currency: 'USD', reason: 'c' }),
      s.payout(),
    ];
    const answers = await Promise.all(calls);
    expect([0, 2, 4].map((i) => answers[i]!.status)).toEqual([201, 201, 201]);
    // A payout that found nothing left to pay (another one settled it first) records nothing: 409.
    for (const i of [1, 3, 5]) expect([201, 409]).toContain(answers[i]!.status);
    const paidBy = (a: { status: number; body: { data: { totals: { USD?: { amount_cents: number } } } } }) =>
      a.status === 201 ? (a.body.data.totals.USD?.amount_cents ?? 0) : 0;
    const paid = [1, 3, 5].reduce((sum, i) => sum + paidBy(answers[i]!), 0);
    const figures = await s.figures();
    // 2,000 from the sale + 100 − 50 + 700: what the payouts answered plus what is still due.
    expect(paid + (figures.balance_cents.USD ?? 0)).toBe(2_750);
    expect(figures.paid_cents.USD ?? 0).toBe(paid);
    // One more payout pays what is still due; a clawback that landed after the payouts leaves the partner owing it
    // (a negative balance nets against later commissions), so nothing is paid then and nothing is lost.
    const balance = figures.balance_cents.USD ?? 0;
    const last = await s.payout();
    expect(last.status).toBe(balance > 0 ? 201 : 409);
    expect(paidBy(last)).toBe(Math.max(balance, 0));
  });
});
