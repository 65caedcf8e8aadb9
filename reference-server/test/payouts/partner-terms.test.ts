import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { acceptInvitations, account, merchant, visitorBuys } from '../partners/support';

// Per-partner terms: set on the partner (dashboard and program key), applied to the sales recorded after
// the change, shown as the terms in force to the merchant and the partner, and recorded in the audit log.
const t = harnessPerFile();

async function setup() {
  const m = await merchant(t.h);
  const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
  const short = `jane-terms-${m.program.id}`;
  await m.call('POST', '/links', { partner_id: jane.id, short_link: short });
  const sell = (cents: number) => visitorBuys(t.h, m.program.api_token, short, cents);
  const commissions = async () =>
    (await t.h.store.db.selectFrom('commissions').select('amount_cents').where('partner_id', '=', jane.id).orderBy('id').execute()).map(
      (c) => Number(c.amount_cents),
    );
  const terms = async () => (await m.call('GET', '/partners')).body.data.partners[0].terms;
  const audit = () =>
    t.h.store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('program_id', '=', m.program.id)
      .where('action', '=', 'partner.terms_changed')
      .orderBy('id')
      .execute();
  return { m, jane, sell, commissions, terms, audit };
}

describe('per-partner terms', () => {
  it('apply to the sales recorded after the change; both null follow the program again', async () => {
    const { m, jane, sell, commissions, terms } = await setup();
    await sell(10_000);
    expect(await terms()).toEqual({ commission_type: 'percent', commission_rate: 20, source: 'program' });

    const set = await m.call('PATCH', `/partners/${jane.id}`, { commission_type: 'fixed', commission_rate: 500 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ commission_type: 'fixed', commission_rate: 500 });
    expect(await terms()).toEqual({ commission_type: 'fixed', commission_rate: 500, source: 'partner' });
    // A new customer's sale pays the partner's terms (fixed pays on conversion); the earlier one keeps its amount.
    await sell(10_000);
    expect(await commissions()).toEqual([2_000, 500]);

    await m.call('PATCH', `/partners/${jane.id}`, { commission_type: 'percent', commission_rate: 35.5 });
    await sell(10_000);
    expect(await commissions()).toEqual([2_000, 500, 3_550]);

    const back = await m.call('PATCH', `/partners/${jane.id}`, { commission_type: null, commission_rate: null });
    expect(back.body.data).toMatchObject({ commission_type: null, commission_rate: null });
    expect(await terms()).toEqual({ commission_type: 'percent', commission_rate: 20, source: 'program' });
    await sell(10_000);
    expect(await commissions()).toEqual([2_000, 500, 3_550, 2_000]);
  });

  it('refuses a type without a rate, a rate above its cap, zero, and unknown types, changing nothing', async () => {
    const { m, jane, terms } = await setup();
    const message =
      'commission_type and commission_rate go together: a type of percent, fixed, recurring_percent or recurring_fixed and a positive rate within its cap, or both null';
    for (const body of [
      { commission_type: 'fixed' },
      { commission_rate: 10 },
      { commission_type: 'percent', commission_rate: 101 },
      { commission_type: 'fixed', commission_rate: 1_000_000_000_001 },
      { commission_type: 'percent', commission_rate: 0 },
      { commission_type: 'bonus', commission_rate: 5 },
      { commission_type: 'percent', commission_rate: '5' },
      { commission_type: null, commission_rate: 5 },
      { name: 'Renamed', commission_type: 'percent', commission_rate: -1 },
    ]) {
      const res = await m.call('PATCH', `/partners/${jane.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(await terms()).toEqual({ commission_type: 'percent', commission_rate: 20, source: 'program' });
    expect((await m.call('GET', '/partners')).body.data.partners[0].name).toBe('Jane');
  });

  it('records partner.terms_changed with old and new terms and who, from the dashboard and the program key', async () => {
    const { m, jane, audit } = await setup();
    await m.call('PATCH', `/partners/${jane.id}`, { commission_type: 'fixed', commission_rate: 700 });
    const byKey = await t.h.request('PATCH', `/api/v1/partners/${jane.id}`, {
      key: m.program.api_token,
      json: { commission_type: null, commission_rate: null },
    });
    expect(byKey.status).toBe(200);
    // A name change alone is no terms change.
    await m.call('PATCH', `/partners/${jane.id}`, { name: 'Jane D' });
    const entries = await audit();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ actor_account_id: m.program.account_id, target: `partner:${jane.id}` });
    expect(JSON.parse(entries[0]!.details)).toEqual({ old: 'program', new: { commission_type: 'fixed', commission_rate: 700 } });
    expect(entries[1]!.actor).toBe(`api key …${m.program.api_token.slice(-4)}`);
    expect(JSON.parse(entries[1]!.details)).toEqual({ old: { commission_type: 'fixed', commission_rate: 700 }, new: 'program' });
  });
});

describe('the partner sees their money', () => {
  it('shows the terms in force and their payouts (date, amounts, reference, method; not the note)', async () => {
    const { m, jane, sell } = await setup();
    await m.call('PATCH', `/partners/${jane.id}`, { commission_type: 'fixed', commission_rate: 900 });
    await sell(10_000);
    const payout = (await m.call('POST', '/payouts', { partner_id: jane.id, reference: 'TR-7', method: 'PayPal', note: 'internal: VIP' }))
      .body.data;
    const cookie = await account(t.h, 'jane@example.com');
    await acceptInvitations(t.h, cookie);
    const view = await t.h.request('GET', '/api/partner', { headers: { cookie } });
    expect(view.status).toBe(200);
    const [entry] = view.body.data.partners;
    expect(entry.partner.terms).toEqual({ commission_type: 'fixed', commission_rate: 900, source: 'partner' });
    expect(entry.payouts).toEqual([
      {
        id: payout.id,
        totals: { USD: { amount_cents: 900, commissions: 1, clawbacks: 0, carried_cents: 0 } },
        reference: 'TR-7',
        method: 'PayPal',
        created_at: payout.created_at,
      },
    ]);
    expect(view.text).not.toContain('internal: VIP');
  });
});
