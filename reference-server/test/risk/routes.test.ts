import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { account, acceptInvitations } from '../partners/support';
import { startReceiver, waitFor, type Receiver } from '../webhooks-out/receiver';
import { riskShop } from './support';

// Where risk events show: the dashboard list and `GET /api/v1/risk-events` (filters, paging), `risk.flagged`, the
// settings; and where they never show: the partner view.
const t = harnessPerFile();

describe('the risk-events list', () => {
  it('filters by partner and kind and pages by cursor, the same with the program key', async () => {
    const s = await riskShop(t.h);
    await s.lead('jane.doe@gmail.com');
    await s.lead('one@mailinator.com');
    await s.lead('two@mailinator.com', 'bob');
    const all = await s.events();
    expect(all.data.map((e) => e.kind)).toEqual(['disposable_email', 'disposable_email', 'self_referral']);
    expect(all.next_cursor).toBeNull();
    expect((await s.events(`?partner_id=${s.bob.id}`)).data.map((e) => e.partner_id)).toEqual([s.bob.id]);
    expect((await s.events(`?kind=self_referral`)).data).toHaveLength(1);
    expect((await s.events(`?partner_id=${s.jane.id}&kind=disposable_email`)).data).toHaveLength(1);

    const first = await s.events('?limit=2');
    expect(first.data.map((e) => e.id)).toEqual(all.data.slice(0, 2).map((e) => e.id));
    const second = await s.events(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.data.map((e) => e.id)).toEqual([all.data[2].id]);
    expect(second.next_cursor).toBeNull();

    const keyed = await t.h.request('GET', '/api/v1/risk-events?kind=disposable_email', { key: s.key });
    expect(keyed.status, keyed.text).toBe(200);
    expect(keyed.body.data.map((e: { id: number }) => e.id)).toEqual(all.data.slice(0, 2).map((e) => e.id));
  });

  it('refuses a bad parameter with the message naming it, and another program’s partner as not found', async () => {
    const s = await riskShop(t.h);
    const other = await riskShop(t.h);
    const cases: [string, number, string][] = [
      ['?kind=fraud', 400, 'kind must be one of: self_referral, disposable_email, click_flood, fast_conversion, shared_identity'],
      ['?limit=0', 400, 'limit must be an integer from 1 to 100'],
      ['?cursor=nope', 400, 'cursor must be a next_cursor this list answered'],
      ['?partner_id=x', 400, 'partner_id must be a positive integer'],
      [`?partner_id=${other.jane.id}`, 404, 'Partner not found'],
    ];
    for (const [query, status, message] of cases) {
      const res = await s.m.call('GET', `/risk-events${query}`);
      expect([res.status, res.body.error.message]).toEqual([status, message]);
    }
    expect((await t.h.request('GET', '/api/v1/risk-events')).status).toBe(401);
  });

  it('shows each partner’s count on the partners list', async () => {
    const s = await riskShop(t.h);
    await s.lead('a@mailinator.com');
    await s.lead('b@mailinator.com');
    const partners = (await s.m.call('GET', '/partners')).body.data.partners as { id: number; risk_events: number }[];
    expect(partners.map((p) => [p.id, p.risk_events])).toEqual([
      [s.jane.id, 2],
      [s.bob.id, 0],
    ]);
    const keyed = await t.h.request('GET', '/api/v1/partners', { key: s.key });
    expect(keyed.body.data.partners[0].risk_events).toBe(2);
  });
});

describe('the partner never sees risk events', () => {
  it('the partner view holds nothing of them, whatever was raised on the partner', async () => {
    const s = await riskShop(t.h);
    const customer = await s.lead('jane.doe@gmail.com');
    await s.sale(customer);
    await s.lead('x@mailinator.com');
    const cookie = await account(t.h, 'jane.doe@gmail.com');
    await acceptInvitations(t.h, cookie);
    const view = await t.h.request('GET', '/api/partner', { headers: { cookie } });
    expect(view.status, view.text).toBe(200);
    expect(view.body.data.partners).toHaveLength(1);
    expect(view.text).not.toMatch(/risk_|risk-event|self_referral|disposable|mailinator/);
    // Nor the merchant's routes.
    const denied = await t.h.request('GET', `${s.m.base}/risk-events`, { headers: { cookie } });
    expect(denied.status).toBe(403);
  });
});

describe('settings', () => {
  it('shows the defaults and refuses invalid values, changing nothing', async () => {
    const s = await riskShop(t.h);
    const patch = (json: unknown) => t.h.request('PATCH', s.m.base, { headers: { cookie: s.m.cookie }, json });
    const ok = await patch({ fast_conversion_seconds: 5 });
    expect(ok.body.data.program).toMatchObject({
      risk_hold_kinds: ['self_referral', 'shared_identity'],
      click_flood_threshold: 10,
      fast_conversion_seconds: 5,
    });
    const refused: [unknown, string][] = [
      [
        { risk_hold_kinds: ['fraud'] },
        'risk_hold_kinds must be a list, without repeats, of: self_referral, disposable_email, click_flood, fast_conversion, shared_identity',
      ],
      [
        { risk_hold_kinds: ['click_flood', 'click_flood'] },
        'risk_hold_kinds must be a list, without repeats, of: self_referral, disposable_email, click_flood, fast_conversion, shared_identity',
      ],
      [{ click_flood_threshold: 0 }, 'click_flood_threshold must be an integer from 1 to 10000'],
      [{ fast_conversion_seconds: 3601, risk_hold_kinds: [] }, 'fast_conversion_seconds must be an integer from 0 to 3600'],
    ];
    for (const [json, message] of refused) {
      const res = await patch(json);
      expect([res.status, res.body.error.message]).toEqual([400, message]);
    }
    const now = await patch({ risk_hold_kinds: ['disposable_email', 'self_referral'] });
    expect(now.body.data.program.risk_hold_kinds).toEqual(['self_referral', 'disposable_email']);
    const audit = (await s.m.call('GET', '/audit-log?action=program.updated')).body.data.entries;
    expect(audit[0].details).toEqual({
      risk_hold_kinds: { from: ['self_referral', 'shared_identity'], to: ['self_referral', 'disposable_email'] },
    });
  });
});

describe('risk.flagged', () => {
  let r: Receiver;
  beforeEach(async () => {
    r = await startReceiver();
  });
  afterEach(() => r.close());

  it('is delivered to a real receiver, verified by standardwebhooks, with the event as the list shows it', async () => {
    const s = await riskShop(t.h);
    const res = await s.m.call('POST', '/webhook-endpoints', { url: `${r.url}/hook`, events: ['risk.flagged'] });
    expect(res.status, res.text).toBe(201);
    r.secret = res.body.data.secret;
    await s.lead('jane.doe@gmail.com');
    const [got] = await waitFor('1 delivery', () => r.received.length >= 1 && r.received);
    expect(got!.verifyError).toBeUndefined();
    expect(got!.specErrors).toEqual([]);
    const [listed] = (await s.events()).data;
    expect(got!.event).toMatchObject({ type: 'risk.flagged', data: { program_id: s.m.program.id, risk_event: listed, is_test: false } });
  });
});
