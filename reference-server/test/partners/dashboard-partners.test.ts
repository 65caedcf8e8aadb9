import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { account, merchant, visitorBuys } from './support';

const t = harnessPerFile();

describe('partners in the dashboard API', () => {
  it('adds a partner (201), lower-cases the email, and lists it with zero figures', async () => {
    const m = await merchant(t.h);
    const created = await m.call('POST', '/partners', { name: ' Jane Doe ', email: 'Jane@Example.COM' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      name: 'Jane Doe',
      email: 'jane@example.com',
      status: 'active',
      invitation: 'pending',
      commission_type: null,
      commission_rate: null,
      created_at: expect.any(String),
    });
    const list = await m.call('GET', '/partners');
    expect(list.body.data.partners).toEqual([
      {
        ...created.body.data,
        terms: { commission_type: 'percent', commission_rate: 20, source: 'program' },
        figures: {
          clicks: 0,
          leads: 0,
          sales: 0,
          revenue_cents: {},
          commissions: { due_cents: {}, held_cents: {}, pending_cents: {}, paid_cents: {}, reversed_cents: {}, balance_cents: {} },
        },
        risk_events: 0,
      },
    ]);
  });

  it('refuses bad fields with their message and changes nothing', async () => {
    const m = await merchant(t.h);
    const cases = [
      [{}, 'name is required: 1 to 200 characters'],
      [{ name: 'x'.repeat(201) }, 'name is required: 1 to 200 characters'],
      [{ name: 'Jane', email: 'not-an-email' }, 'email must be an email address, or null'],
    ] as const;
    for (const [json, message] of cases) {
      const res = await m.call('POST', '/partners', json);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await m.call('GET', '/partners')).body.data.partners).toEqual([]);
  });

  it("renames, re-invites and suspends; a suspended partner's link refuses clicks like a disabled link, and works again once active", async () => {
    const m = await merchant(t.h);
    const partner = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    await m.call('POST', '/links', { partner_id: partner.id, short_link: 'jane-1' });
    const click = () => t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: 'https://shop.example/?aff=jane-1' } });
    expect((await click()).status).toBe(200);

    const suspended = await m.call('PATCH', `/partners/${partner.id}`, { name: 'Jane D', email: 'jane@example.com', status: 'suspended' });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toMatchObject({ name: 'Jane D', email: 'jane@example.com', status: 'suspended' });
    const refused = await click();
    expect(refused.status).toBe(410);
    expect(refused.body.error.code).toBe('link_disabled');

    await m.call('PATCH', `/partners/${partner.id}`, { status: 'active' });
    expect((await click()).status).toBe(200);
    const figures = (await m.call('GET', '/partners')).body.data.partners[0].figures;
    expect(figures.clicks).toBe(2);
  });

  it('checks every field before changing any, and answers 404 for a partner of another program', async () => {
    const m = await merchant(t.h);
    const other = await merchant(t.h, 'other.example');
    const partner = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    const bad = await m.call('PATCH', `/partners/${partner.id}`, { name: 'New', status: 'paused' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('status must be active or suspended');
    expect((await m.call('PATCH', `/partners/${partner.id}`, {})).body.error.message).toBe(
      'Send at least one of name, email, status, commission_type and commission_rate',
    );
    expect((await m.call('GET', '/partners')).body.data.partners[0].name).toBe('Jane');
    const foreign = await other.call('PATCH', `/partners/${partner.id}`, { name: 'Stolen' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('Partner not found');
    expect((await m.call('PATCH', '/partners/abc', { name: 'X' })).body.error.message).toBe('partner_id must be a positive integer');
  });
});

describe('referral links in the dashboard API', () => {
  it('creates a link with the shareable URL, generates a short_link when absent, and lists them', async () => {
    const m = await merchant(t.h);
    const partner = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    const chosen = await m.call('POST', '/links', { partner_id: partner.id, short_link: 'jane_Spring-25' });
    expect(chosen.status).toBe(201);
    expect(chosen.body.data).toEqual({
      id: expect.any(Number),
      partner_id: partner.id,
      short_link: 'jane_Spring-25',
      url: 'https://shop.example/?aff=jane_Spring-25',
      enabled: true,
      disabled_by: null,
      created_at: expect.any(String),
    });
    const generated = await m.call('POST', '/links', { partner_id: partner.id });
    expect(generated.status).toBe(201);
    expect(generated.body.data.short_link).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(generated.body.data.url).toBe(`https://shop.example/?aff=${generated.body.data.short_link}`);
    const list = await m.call('GET', '/links');
    expect(list.body.data.links.map((l: { short_link: string }) => l.short_link)).toEqual([
      'jane_Spring-25',
      generated.body.data.short_link,
    ]);
    // The generated link records clicks like any other.
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: generated.body.data.url } });
    expect(click.status).toBe(200);
  });

  it('answers 409 for a short_link taken in any program, 400 for a malformed one, 404 for a foreign partner', async () => {
    const m = await merchant(t.h);
    const other = await merchant(t.h, 'other.example');
    const mine = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    const theirs = (await other.call('POST', '/partners', { name: 'Bob' })).body.data;
    await other.call('POST', '/links', { partner_id: theirs.id, short_link: 'taken' });
    const taken = await m.call('POST', '/links', { partner_id: mine.id, short_link: 'taken' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('This short_link is already taken');
    for (const short of ['ab', 'has space', 'a/b', 'x'.repeat(65), 42]) {
      const res = await m.call('POST', '/links', { partner_id: mine.id, short_link: short });
      expect(res.status, String(short)).toBe(400);
      expect(res.body.error.message).toBe('short_link must be 3 to 64 characters: letters, digits, _ or -');
    }
    expect((await m.call('POST', '/links', { short_link: 'nobody' })).body.error.message).toBe('partner_id must be a positive integer');
    const foreign = await m.call('POST', '/links', { partner_id: theirs.id, short_link: 'stolen' });
    expect(foreign.status).toBe(404);
    expect((await m.call('GET', '/links')).body.data.links).toEqual([]);
  });

  it("turns a link off (clicks answer 410) and on again; filters by partner; 404 for another program's link", async () => {
    const m = await merchant(t.h);
    const other = await merchant(t.h, 'other.example');
    const jane = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    const bob = (await m.call('POST', '/partners', { name: 'Bob' })).body.data;
    const link = (await m.call('POST', '/links', { partner_id: jane.id, short_link: 'jane-off' })).body.data;
    await m.call('POST', '/links', { partner_id: bob.id, short_link: 'bob-on' });

    const off = await m.call('PATCH', `/links/${link.id}`, { enabled: false });
    expect(off.body.data).toMatchObject({ id: link.id, enabled: false });
    expect((await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: link.url } })).status).toBe(410);
    expect((await m.call('PATCH', `/links/${link.id}`, { enabled: 'no' })).body.error.message).toBe(
      'enabled is required and must be true or false',
    );
    expect((await other.call('PATCH', `/links/${link.id}`, { enabled: true })).status).toBe(404);
    expect((await m.call('PATCH', `/links/${link.id}`, { enabled: true })).body.data.enabled).toBe(true);

    const janes = await m.call('GET', `/links?partner_id=${jane.id}`);
    expect(janes.body.data.links.map((l: { short_link: string }) => l.short_link)).toEqual(['jane-off']);
    expect((await other.call('GET', `/links?partner_id=${jane.id}`)).status).toBe(404);
  });

  it("shows each partner's clicks, leads, sales, revenue and commissions", async () => {
    const m = await merchant(t.h);
    const jane = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    await m.call('POST', '/partners', { name: 'Bob' });
    await m.call('POST', '/links', { partner_id: jane.id, short_link: 'jane-sells' });
    await visitorBuys(t.h, m.program.api_token, 'jane-sells', 10_000);
    await visitorBuys(t.h, m.program.api_token, 'jane-sells', 5_000, 'EUR');
    const [janeRow, bobRow] = (await m.call('GET', '/partners')).body.data.partners;
    expect(janeRow.figures).toEqual({
      clicks: 2,
      leads: 2,
      sales: 2,
      revenue_cents: { USD: 10_000, EUR: 5_000 },
      commissions: {
        due_cents: { USD: 2_000, EUR: 1_000 },
        held_cents: {},
        pending_cents: {},
        paid_cents: {},
        reversed_cents: {},
        balance_cents: { USD: 2_000, EUR: 1_000 },
      },
    });
    expect(bobRow.figures.clicks).toBe(0);
  });
});

describe('partner routes: who may call them', () => {
  it('needs a session (a program key is not one), and a membership: another program answers 403 like an unknown one', async () => {
    const m = await merchant(t.h);
    const outsider = await account(t.h, 'outsider@example.com');
    const paths = [
      ['POST', '/partners', { name: 'X' }],
      ['GET', '/partners', undefined],
      ['PATCH', '/partners/1', { name: 'X' }],
      ['POST', '/links', { partner_id: 1 }],
      ['GET', '/links', undefined],
      ['PATCH', '/links/1', { enabled: false }],
      ['GET', '/commissions.csv?from=2025-01-01&to=2025-12-31', undefined],
      ['POST', '/payouts', { partner_id: 1, through: '2025-12-31' }],
    ] as const;
    for (const [method, path, json] of paths) {
      const anonymous = await t.h.request(method, `${m.base}${path}`, { key: m.program.api_token, ...(json ? { json } : {}) });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const foreign = await m.call(method, path, json, outsider);
      const unknown = await t.h.request(method, `/api/dashboard/programs/999999${path}`, {
        headers: { cookie: outsider },
        ...(json ? { json } : {}),
      });
      expect(foreign.status, `${method} ${path}`).toBe(403);
      expect(unknown.body).toEqual(foreign.body);
    }
  });
});
