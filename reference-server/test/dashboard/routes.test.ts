import { describe, expect, it } from 'vitest';
import type { Harness } from '../harness';
import { withSignedInOwner, type OwnedProgram } from './signed-in-owner';

let h: Harness;
let program: OwnedProgram;
let cookie: string;
withSignedInOwner({ commission_type: 'percent', commission_rate: 10 }, (s) => ({ h, program, cookie } = s));

const get = (path: string, c: string | undefined = cookie, extra: Record<string, string> = {}) =>
  h.request('GET', path, { headers: { ...(c ? { cookie: c } : {}), ...extra } });
const post = (path: string, json: unknown, c: string | undefined = cookie, extra: Record<string, string> = {}) =>
  h.request('POST', path, { json, headers: { ...(c ? { cookie: c } : {}), ...extra } });

/** Every /api/tracking route, as a request for a given program id. */
const routes: [string, (id: number | string, c?: string, extra?: Record<string, string>) => ReturnType<typeof get>][] = [
  ['status', (id, c, e) => get(`/api/tracking/status/${id}`, c, e)],
  ['events', (id, c, e) => get(`/api/tracking/events/${id}`, c, e)],
  ['performance', (id, c, e) => get(`/api/tracking/performance/${id}`, c, e)],
  ['readiness', (id, c, e) => get(`/api/tracking/readiness/${id}`, c, e)],
  ['test', (id, c, e) => post('/api/tracking/test', { program_id: id, event_type: 'click' }, c, e)],
  ['check-test-events', (id, c, e) => post('/api/tracking/check-test-events', { program_id: id }, c, e)],
  ['run-verification', (id, c, e) => post(`/api/tracking/run-verification/${id}`, {}, c, e)],
];

async function realFunnel() {
  const partner = await h.control.createPartner({ program_id: program.id, name: 'Pat' });
  await h.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: 'pat' });
  const click = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: 'https://acme.example/?aff=pat' } });
  const clickId = click.body.click_id as string;
  await h.request('POST', '/api/v1/track/lead', { key: program.api_token, json: { click_id: clickId, customer_key: 'cust_1' } });
  await h.request('POST', '/api/v1/track/sale', {
    key: program.api_token,
    json: { transaction_id: 'txn_1', amount_cents: 10_000, currency: 'USD', customer_key: 'cust_1' },
  });
  return { partner, clickId };
}

describe('/api/tracking/* access', () => {
  it.each(routes)('%s: refuses no session, a Bearer program key and an expired session with 401', async (_name, call) => {
    for (const res of [await call(program.id, ''), await call(program.id, '', { authorization: `Bearer ${program.api_token}` })]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        data: null,
        error: { status: 401, name: 'UnauthorizedError', message: 'Sign in to the dashboard first', details: {} },
      });
    }
    expect((await call(program.id, 'svc_session=forged')).status).toBe(401);
    await h.control.clock({ advance_seconds: 7 * 24 * 3600 + 1 });
    expect((await call(program.id)).status).toBe(401);
  });

  it.each(routes)('%s: needs an active membership on an existing program', async (_name, call) => {
    const stranger = await h.control.createAccount();
    const strangerCookie = (await h.control.createDashboardSession(stranger.account_id)).cookie;
    const forbidden = await call(program.id, strangerCookie);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toBe("You are not a member of this program's workspace");

    // An unknown program answers exactly as one the account is not a member of (spec/rules.md "Errors/Status codes": 404 is
    // only for a sale to refund or a CLI login session), so program ids cannot be enumerated.
    const missing = await call(999_999);
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual(forbidden.body);
    expect((await call('abc')).body.error.message).toBe('program_id must be a positive integer');

    await h.control.addMembership({ account_id: stranger.account_id, program_id: program.id, role: 'member' });
    expect((await call(program.id, strangerCookie)).status).toBe(200);
    await h.store.db.updateTable('memberships').set({ active: 0 }).where('account_id', '=', stranger.account_id).execute();
    expect((await call(program.id, strangerCookie)).status).toBe(403);
  });

  it('refuses a suspended account with ACCOUNT_BLOCKED', async () => {
    await h.store.db.updateTable('accounts').set({ blocked: 1 }).where('id', '=', program.account_id).execute();
    const res = await get(`/api/tracking/status/${program.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ message: 'Your account has been suspended.', details: { code: 'ACCOUNT_BLOCKED' } });
  });

  it('takes program_id from the body on /test and /check-test-events', async () => {
    for (const path of ['/api/tracking/test', '/api/tracking/check-test-events']) {
      const res = await post(path, { event_type: 'click' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('program_id is required');
    }
  });
});

describe('GET /api/tracking/status/:programId', () => {
  it('shows settings with the key masked, the role, metrics and integration state', async () => {
    const before = await get(`/api/tracking/status/${program.id}`);
    expect(before.body.data).toMatchObject({
      role: 'owner',
      program: { id: program.id, api_token: `svc_live_…${program.api_token.slice(-4)}` },
      integration: {
        tracker_seen: false,
        leads_seen: false,
        sales_seen: false,
        processor_connected: false,
        processor_account: null,
        last_event_at: null,
      },
    });
    await realFunnel();
    await h.control.connectProcessor({ program_id: program.id, account: 'acct_123' });
    const after = await get(`/api/tracking/status/${program.id}`);
    expect(after.body.data.metrics).toEqual({
      clicks: 1,
      leads: 1,
      sales: 1,
      revenue_cents: { USD: 10_000 },
      commissions_cents: { USD: 1_000 },
    });
    expect(after.body.data.integration).toMatchObject({
      tracker_seen: true,
      leads_seen: true,
      sales_seen: true,
      processor_connected: true,
      processor_account: 'acct_123',
    });
    expect(after.body.data.integration.last_event_at).not.toBeNull();
  });
});

describe('GET /api/tracking/events/:programId', () => {
  it('lists click, lead and sale events newest first, with limit, after_id and include_test', async () => {
    const { clickId } = await realFunnel();
    await post('/api/tracking/test', { program_id: program.id, event_type: 'click' });
    const all = (await get(`/api/tracking/events/${program.id}`)).body.data.events;
    expect(all.map((e: { type: string; is_test: boolean }) => [e.type, e.is_test])).toEqual([
      ['click', true],
      ['sale', false],
      ['lead', false],
      ['click', false],
    ]);
    expect(all[1]).toMatchObject({
      amount_cents: 10_000,
      currency: 'USD',
      source: 'api',
      customer_key: 'cust_1',
      sale_id: expect.any(Number),
    });
    expect(all[3]).toMatchObject({ click_id: clickId, partner_id: expect.any(Number) });

    const real = (await get(`/api/tracking/events/${program.id}?include_test=false`)).body.data.events;
    expect(real).toHaveLength(3);
    const two = (await get(`/api/tracking/events/${program.id}?limit=2`)).body.data.events;
    expect(two.map((e: { id: number }) => e.id)).toEqual([all[0].id, all[1].id]);
    const newer = (await get(`/api/tracking/events/${program.id}?after_id=${all[2].id}`)).body.data.events;
    expect(newer.map((e: { id: number }) => e.id)).toEqual([all[0].id, all[1].id]);
  });

  it('validates its query', async () => {
    for (const [query, message] of [
      ['limit=0', 'limit must be an integer from 1 to 200'],
      ['limit=201', 'limit must be an integer from 1 to 200'],
      ['after_id=-1', 'after_id must be a non-negative integer'],
      ['include_test=maybe', 'include_test must be true or false'],
    ]) {
      const res = await get(`/api/tracking/events/${program.id}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });
});

describe('GET /api/tracking/performance/:programId', () => {
  it('reports totals, conversion rates, zero-filled days and partners from the aggregates', async () => {
    const { partner } = await realFunnel();
    // A second click for the same partner, no lead.
    await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: 'https://acme.example/?aff=pat' } });
    await post('/api/tracking/test', { program_id: program.id, event_type: 'sale' });

    const res = await get(`/api/tracking/performance/${program.id}?days=7`);
    expect(res.status).toBe(200);
    const { totals, conversion_rates, by_day, by_partner } = res.body.data;
    expect(totals).toEqual({ clicks: 2, leads: 1, sales: 1, revenue_cents: { USD: 10_000 }, commissions_cents: { USD: 1_000 } });
    expect(conversion_rates).toEqual({ click_to_lead: 0.5, lead_to_sale: 1, click_to_sale: 0.5 });
    expect(by_day).toHaveLength(7);
    expect(by_day[6]).toEqual({ date: new Date().toISOString().slice(0, 10), ...totals });
    expect(by_day[0]).toMatchObject({ clicks: 0, leads: 0, sales: 0, revenue_cents: {}, commissions_cents: {} });
    expect(by_partner).toEqual([{ partner_id: partner.id, partner_name: 'Pat', ...totals, conversion_rates }]);

    // Read from the maintained aggregates, not by scanning events: removing the event log changes nothing.
    await h.store.db.deleteFrom('events').execute();
    expect((await get(`/api/tracking/performance/${program.id}?days=7`)).body.data).toEqual(res.body.data);
  });

  it('has null rates with no traffic and validates days', async () => {
    const empty = await get(`/api/tracking/performance/${program.id}`);
    expect(empty.body.data.by_day).toHaveLength(30);
    expect(empty.body.data.conversion_rates).toEqual({ click_to_lead: null, lead_to_sale: null, click_to_sale: null });
    expect(empty.body.data.by_partner).toEqual([]);
    for (const days of ['0', '366', 'x']) {
      expect((await get(`/api/tracking/performance/${program.id}?days=${days}`)).body.error.message).toBe(
        'days must be an integer from 1 to 365',
      );
    }
  });

  // Its speed at 1M events is measured by `pnpm bench` (bench/events-scale.ts), not asserted here.
  it('answers a year of 50 partners from the daily rollups alone', async () => {
    const partner = await h.control.createPartner({ program_id: program.id, name: 'Big' });
    // A year of rollups for 50 partners stands for millions of events: the route reads rollups only.
    const rows = [];
    for (let d = 0; d < 365; d++) {
      const day = new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
      for (let p = 0; p < 50; p++)
        rows.push({ program_id: program.id, day, partner_id: p === 0 ? partner.id : 100_000 + p, clicks: 50, leads: 5, sales: 1 });
    }
    for (let i = 0; i < rows.length; i += 500)
      await h.store.db
        .insertInto('daily_metrics')
        .values(rows.slice(i, i + 500))
        .execute();
    const res = await get(`/api/tracking/performance/${program.id}?days=365`);
    expect(res.status).toBe(200);
    expect(res.body.data.by_day[364].clicks).toBe(50 * 50);
    expect(res.body.data.by_partner).toMatchObject([{ partner_id: partner.id, clicks: 365 * 50 }]);
  });
});

describe('GET /api/tracking/readiness/:programId', () => {
  it('wraps the readiness verdict in data', async () => {
    const res = await get(`/api/tracking/readiness/${program.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ program_id: program.id, ready: false, verdict: 'not_started' });
    await realFunnel();
    expect((await get(`/api/tracking/readiness/${program.id}`)).body.data).toMatchObject({
      ready: true,
      verdict: 'ready',
      next_step: null,
    });
  });
});

describe('dashboard verifier', () => {
  it('creates test events and reports which landed', async () => {
    const before = await post('/api/tracking/check-test-events', { program_id: program.id });
    expect(before.body.data).toEqual({ click: false, lead: false, sale: false, all_landed: false, events: [] });

    const click = await post('/api/tracking/test', { program_id: program.id, event_type: 'click' });
    expect(click.status).toBe(200);
    expect(click.body.data).toMatchObject({ mode: 'single', events: [{ event_type: 'click', ok: true }] });
    const bad = await post('/api/tracking/test', { program_id: program.id, event_type: 'refund' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid event_type: refund. Valid: click, lead, sale');

    const partial = await post('/api/tracking/check-test-events', { program_id: program.id });
    expect(partial.body.data).toMatchObject({ click: true, lead: false, sale: false, all_landed: false });
    await post('/api/tracking/test', { program_id: program.id, event_type: 'lead' });
    await post('/api/tracking/test', { program_id: program.id, event_type: 'sale' });
    const all = await post('/api/tracking/check-test-events', { program_id: program.id });
    expect(all.body.data).toMatchObject({ click: true, lead: true, sale: true, all_landed: true });
    expect(all.body.data.events).toHaveLength(3);

    const later = await post('/api/tracking/check-test-events', {
      program_id: program.id,
      since: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(later.body.data.all_landed).toBe(false);
    const badSince = await post('/api/tracking/check-test-events', { program_id: program.id, since: 'yesterday' });
    expect(badSince.body.error.message).toBe('since must be an ISO 8601 date-time');
  });

  it('runs the verification chain under the cap shared with the CLI', async () => {
    const res = await post(`/api/tracking/run-verification/${program.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.data.passed).toBe(true);
    expect(res.body.data.result.events.map((e: { event_type: string }) => e.event_type)).toEqual(['click', 'lead', 'sale']);
    for (let i = 0; i < 9; i++) await h.request('POST', '/api/v1/cli/test-event', { key: program.api_token, json: { type: 'chain' } });
    const capped = await post(`/api/tracking/run-verification/${program.id}`, {});
    expect(capped.status).toBe(429);
    expect(capped.body.error).toMatchObject({ code: 'rate_limited', message: 'Too many synthetic chains (max 10/program/hour).' });
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers an internal failure with the generic dashboard 500', async () => {
    await h.control.armFault({ point: 'cli' });
    const res = await post(`/api/tracking/run-verification/${program.id}`, {});
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ status: 500, name: 'InternalServerError', message: 'Internal server error', details: {} });
  });
});
