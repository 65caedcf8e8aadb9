import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { riskShop } from './support';

// Risk signals (spec `RiskKind`, domain/risk/): each raised where the data already is, recorded as a risk event, and
// a commission of a kind the program holds on created `held` until an owner approves it.
const t = harnessPerFile();
const today = () => new Date().toISOString().slice(0, 10);

describe('self-referral', () => {
  it('a partner signing up through their own link with a dotted gmail variant of their email: an event, the commission held and never paid before approval', async () => {
    const s = await riskShop(t.h);
    const customer = await s.lead('J.aneDoe+shop@googlemail.com');
    const [event] = (await s.events()).data;
    expect(event).toMatchObject({
      partner_id: s.jane.id,
      kind: 'self_referral',
      subject: { type: 'customer', id: customer },
      details: { reason: 'same_email', email: 'J.aneDoe+shop@googlemail.com', partner_email: 'jane.doe@gmail.com' },
    });
    const id = await s.sale(customer);
    expect(await s.commission(id)).toMatchObject({ status: 'held', hold_reason: 'risk' });

    // The payout pays nothing while it waits: there is nothing due.
    const payout = await s.m.call('POST', '/payouts', { partner_id: s.jane.id, through: today() });
    expect(payout.status).not.toBe(201);
    expect((await s.commission(id)).paid_at).toBeNull();

    expect((await s.m.call('POST', `/commissions/${id}/approve`)).body.data.status).toBe('due');
    const paid = await s.m.call('POST', '/payouts', { partner_id: s.jane.id, through: '2999-12-31' });
    expect(paid.status, paid.text).toBe(201);
    expect((await s.commission(id)).paid_at).not.toBeNull();
  });

  it('a customer on the partner’s own company domain is a self-referral; one on a webmail domain the partner shares is not', async () => {
    const s = await riskShop(t.h);
    await s.lead('carol@bob-bikes.com', 'bob');
    await s.lead('someone.else@gmail.com', 'jane');
    const { data } = await s.events();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      partner_id: s.bob.id,
      kind: 'self_referral',
      details: { reason: 'same_domain', domain: 'bob-bikes.com' },
    });
  });

  it('with risk_hold_kinds [] the self-referral is flagged and its commission paid as usual', async () => {
    const s = await riskShop(t.h);
    const res = await t.h.request('PATCH', s.m.base, { headers: { cookie: s.m.cookie }, json: { risk_hold_kinds: [] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.program.risk_hold_kinds).toEqual([]);
    const id = await s.sale(await s.lead('jane.doe@gmail.com'));
    expect((await s.events()).data).toHaveLength(1);
    expect(await s.commission(id)).toMatchObject({ status: 'pending', hold_reason: null });
  });
});

describe('disposable email', () => {
  it('a customer on a throwaway domain (or under one) raises an event and the commission is paid as usual', async () => {
    const s = await riskShop(t.h);
    const customer = await s.lead('visitor@mailinator.com');
    await s.lead('visitor@eu.mailinator.com');
    await s.lead('visitor@example.org');
    const { data } = await s.events('?kind=disposable_email');
    expect(data.map((e) => e.details.domain)).toEqual(['eu.mailinator.com', 'mailinator.com']);
    const id = await s.sale(customer);
    expect(await s.commission(id)).toMatchObject({ status: 'pending', hold_reason: null });
    const paid = await s.m.call('POST', '/payouts', { partner_id: s.jane.id, through: '2999-12-31' });
    expect(paid.status, paid.text).toBe(201);
  });
});

describe('click flood', () => {
  it('more than 10 clicks on one link from one IP within 10 minutes: exactly one event per link and IP per hour, every click recorded', async () => {
    const s = await riskShop(t.h);
    for (let i = 0; i < 25; i++) await s.click('jane', '203.0.113.9');
    // Another IP, and the same IP on another link, stay under the threshold.
    for (let i = 0; i < 10; i++) await s.click('jane', '203.0.113.10');
    for (let i = 0; i < 10; i++) await s.click('bob', '203.0.113.9');
    let { data } = await s.events();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      partner_id: s.jane.id,
      kind: 'click_flood',
      subject: { type: 'link' },
      details: { ip: '203.0.113.9', short_link: s.links.jane, clicks: 11, window_seconds: 600 },
    });
    const clicks = await t.h.store.db
      .selectFrom('clicks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('program_id', '=', s.m.program.id)
      .executeTakeFirstOrThrow();
    expect(Number(clicks.n)).toBe(45);

    // Within the hour no second event; after it, a new flood raises one more.
    await t.h.control.clock({ advance_seconds: 30 * 60 });
    for (let i = 0; i < 12; i++) await s.click('jane', '203.0.113.9');
    expect((await s.events()).data).toHaveLength(1);
    await t.h.control.clock({ advance_seconds: 31 * 60 });
    for (let i = 0; i < 12; i++) await s.click('jane', '203.0.113.9');
    ({ data } = await s.events('?kind=click_flood'));
    expect(data).toHaveLength(2);
  });

  it('clicks spread over more than 10 minutes are no flood; the threshold is the program’s', async () => {
    const s = await riskShop(t.h);
    for (let i = 0; i < 20; i++) {
      await s.click('jane', '203.0.113.20');
      await t.h.control.clock({ advance_seconds: 61 });
    }
    expect((await s.events()).data).toHaveLength(0);
    expect((await t.h.request('PATCH', s.m.base, { headers: { cookie: s.m.cookie }, json: { click_flood_threshold: 2 } })).status).toBe(
      200,
    );
    for (let i = 0; i < 3; i++) await s.click('bob', '203.0.113.21');
    expect((await s.events()).data.map((e) => e.kind)).toEqual(['click_flood']);
  });
});

describe('fast conversion', () => {
  it('a browser lead within 2 s of its click from the same IP; not after 2 s, not from another IP, not a server-mode lead', async () => {
    const s = await riskShop(t.h, { leadAuth: 'browser_allowed' });
    const fast = await s.lead(undefined, 'jane', '192.0.2.50');
    // Later than the window on the injected clock.
    const clickId = await s.click('jane', '192.0.2.51');
    await t.h.control.clock({ advance_seconds: 3 });
    const late = await t.h.request('POST', '/api/v1/track/lead', {
      json: { click_id: clickId, customer_key: 'cust_late' },
      remoteAddress: '192.0.2.51',
      headers: { origin: 'https://shop.example' },
    });
    expect(late.status).toBe(200);
    const other = await s.click('jane', '192.0.2.52');
    const elsewhere = await t.h.request('POST', '/api/v1/track/lead', {
      json: { click_id: other, customer_key: 'cust_elsewhere' },
      remoteAddress: '192.0.2.53',
      headers: { origin: 'https://shop.example' },
    });
    expect(elsewhere.status).toBe(200);
    await s.lead(undefined, 'jane');
    const { data } = await s.events();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ kind: 'fast_conversion', subject: { type: 'customer', id: fast }, details: { ip: '192.0.2.50' } });
    expect(data[0].details.seconds).toBeLessThan(2);
    // Not a kind held by default.
    expect(await s.commission(await s.sale(fast))).toMatchObject({ status: 'pending' });
  });
});

describe('shared identity', () => {
  it('two partners with the same mailbox: an event on each, and their commissions held', async () => {
    const s = await riskShop(t.h);
    const twin = (await s.m.call('POST', '/partners', { name: 'Twin', email: 'JaneDoe@gmail.com' })).body.data as { id: number };
    const { data } = await s.events('?kind=shared_identity');
    expect(data.map((e) => [e.partner_id, e.subject])).toEqual(
      expect.arrayContaining([
        [twin.id, { type: 'partner', id: String(s.jane.id) }],
        [s.jane.id, { type: 'partner', id: String(twin.id) }],
      ]),
    );
    const id = await s.sale(await s.lead('buyer@example.org'));
    expect(await s.commission(id)).toMatchObject({ status: 'held', hold_reason: 'risk' });
  });

  it('a partner who signs up as a customer through another partner’s link is flagged; the referring partner is not', async () => {
    const s = await riskShop(t.h);
    await s.lead('bob@bob-bikes.com', 'jane');
    const { data } = await s.events();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ partner_id: s.bob.id, kind: 'shared_identity', details: { referred_by_partner_id: s.jane.id } });
    // Jane's commission for that customer is paid as usual; Bob's own are held.
    expect((await s.commission(await s.sale(await s.lead('x@example.org', 'jane')))).status).toBe('pending');
    expect((await s.commission(await s.sale(await s.lead('y@example.org', 'bob')))).status).toBe('held');
  });
});

describe('declining with a ban', () => {
  it('suspends the partner, turns off their links and declines their pending, held and due commissions in one go, all in the audit log', async () => {
    const s = await riskShop(t.h);
    await t.h.request('PATCH', s.m.base, { headers: { cookie: s.m.cookie }, json: { commission_hold_days: 30 } });
    const held = await s.sale(await s.lead('jane.doe@gmail.com'));
    const pending = await s.sale(await s.lead('a@example.org'));
    const approved = await s.sale(await s.lead('b@example.org'));
    expect((await s.m.call('POST', `/commissions/${approved}/approve`)).body.data.status).toBe('due');
    const bobs = await s.sale(await s.lead('c@example.org', 'bob'));

    const res = await s.m.call('POST', `/commissions/${held}/decline`, { reason: 'Self-referral', ban: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.status).toBe('declined');
    for (const id of [held, pending, approved])
      expect(await s.commission(id)).toMatchObject({ status: 'declined', decline_reason: 'Self-referral' });
    expect((await s.commission(bobs)).status).toBe('pending');

    const partners = (await s.m.call('GET', '/partners')).body.data.partners;
    expect(partners.find((p: { id: number }) => p.id === s.jane.id)).toMatchObject({ status: 'suspended', risk_events: 1 });
    const links = (await s.m.call('GET', '/links')).body.data.links ?? (await s.m.call('GET', '/links')).body.data;
    expect(links.find((l: { short_link: string }) => l.short_link === s.links.jane)).toMatchObject({
      enabled: false,
      disabled_by: 'merchant',
    });
    const click = await t.h.request('POST', '/api/v1/track/click', {
      json: { affiliate_url: `https://shop.example/?aff=${s.links.jane}` },
    });
    expect(click.status).toBe(410);

    const audit = (await s.m.call('GET', '/audit-log?action=partner.banned')).body.data.entries;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      target: `partner:${s.jane.id}`,
      reason: 'Self-referral',
      details: {
        status: { from: 'active', to: 'suspended' },
        links: [s.links.jane],
        commissions: { count: 2, totals: [{ currency: 'USD', amount_cents: 4000 }] },
      },
    });
    expect((await s.m.call('GET', '/audit-log?action=commission.declined')).body.data.entries).toHaveLength(1);
    // Reactivating releases nothing: the declined commissions stay declined.
    expect((await s.m.call('PATCH', `/partners/${s.jane.id}`, { status: 'active' })).status).toBe(200);
    expect((await s.commission(pending)).status).toBe('declined');
  });

  it('refuses a ban that is not a boolean, changing nothing', async () => {
    const s = await riskShop(t.h);
    const id = await s.sale(await s.lead('jane.doe@gmail.com'));
    const res = await s.m.call('POST', `/commissions/${id}/decline`, { reason: 'x', ban: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('ban must be true or false');
    expect((await s.commission(id)).status).toBe('held');
  });
});
