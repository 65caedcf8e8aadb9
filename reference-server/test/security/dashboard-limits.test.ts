import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { buckets } from '../../src/http/rate-limit';
import { openStore, uniqueSchemaName, type Store } from '../../src/store/db';
import { createControlClient, type ControlClient } from '../../src/testing/control-client';
import { contractFetch } from '../../src/testing/fetch';
import { assertValidResponse } from '../../src/testing/validate';

// Security finding "dashboard routes have no limits and no length caps": one dashboard session created 200 programs
// in half a second. The dashboard and account-management routes now count 300 requests a minute per client IP and
// 60 writes a minute per account (spec/openapi.yaml, `ManagementRateLimited`). Real sockets, so the client address
// is the socket's, as in production.
let store: Store;
let app: ReturnType<typeof buildApp>;
let base: string;
let control: ControlClient;
beforeAll(async () => {
  store = await openStore(process.env.DATABASE_URL ?? 'sqlite::memory:', { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
  app = buildApp({ store, testControl: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  control = createControlClient(base, fetch);
});
afterAll(async () => {
  await app.close();
  await store.close();
});
// Test control's reset clears the counters; each test then starts a second into a fresh one-minute window.
beforeEach(async () => {
  await control.reset();
  const now = Date.parse((await control.clock({ advance_seconds: 0 })).now);
  await control.clock({ now: new Date(Math.ceil(now / 60_000) * 60_000 + 1000).toISOString() });
});

const json = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  contractFetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const program = (i: number) => ({ name: `Shop ${i}`, domain: `shop${i}.example`, commission_type: 'percent', commission_rate: 10 });

/** A CLI login token through the real flow (its routes are the `/cli/auth/*` bucket, not these limits). */
async function loginToken(accountId: number): Promise<string> {
  const start = await (await json('POST', '/api/v1/cli/auth/start', {}, {})).json();
  const { id_token } = await control.issueIdToken(accountId);
  expect((await json('POST', '/api/v1/cli/auth/callback', {}, { state: start.data.state, id_token })).status).toBe(200);
  const poll = await (await json('GET', `/api/v1/cli/auth/poll?state=${encodeURIComponent(start.data.state)}`, {})).json();
  return poll.data.token as string;
}

const programsOf = async (accountId: number) => {
  const advertiser = await store.db.selectFrom('advertisers').select('id').where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return (await store.db.selectFrom('programs').select('id').where('advertiser_id', '=', advertiser.id).execute()).length;
};

async function expectLimited(res: Response, limit: number) {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({
    error: { status: 429, code: 'rate_limited', message: 'Too many requests.', retry_after_seconds: expect.any(Number) },
  });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

describe('writes per account', () => {
  it('60 a minute across all of its sessions and its CLI login token; the 61st is refused and creates nothing', async () => {
    expect(buckets.accountWrites.limit).toBe(60);
    const { account_id } = await control.createAccount();
    const first = { cookie: (await control.createDashboardSession(account_id)).cookie };
    const second = { cookie: (await control.createDashboardSession(account_id)).cookie };
    const cli = { authorization: `Bearer ${await loginToken(account_id)}` };

    const firstWrite = await json('POST', '/api/dashboard/programs', first, program(0));
    expect(firstWrite.status).toBe(201);
    // Every answer carries the headers of the bucket nearest its limit: here the account's.
    expect(firstWrite.headers.get('x-ratelimit-limit')).toBe('60');
    expect(firstWrite.headers.get('x-ratelimit-remaining')).toBe('59');
    for (let i = 1; i < 30; i++) expect((await json('POST', '/api/dashboard/programs', first, program(i))).status).toBe(201);
    for (let i = 30; i < 50; i++) expect((await json('POST', '/api/dashboard/programs', second, program(i))).status).toBe(201);
    for (let i = 50; i < 60; i++) expect((await json('POST', '/api/v1/cli/init', cli, program(i))).status).toBe(201);
    expect(await programsOf(account_id)).toBe(60);

    // Another session, the CLI, and any other write of the account: all refused before the route runs.
    const third = { cookie: (await control.createDashboardSession(account_id)).cookie };
    await expectLimited(await json('POST', '/api/dashboard/programs', third, program(60)), 60);
    await expectLimited(await json('POST', '/api/v1/cli/init', cli, program(61)), 60);
    const programId = (await (await json('GET', '/api/dashboard/programs', first)).json()).data.programs[0].id;
    await expectLimited(await json('PATCH', `/api/dashboard/programs/${programId}`, first, { lead_auth: 'browser_allowed' }), 60);
    await expectLimited(await json('POST', `/api/dashboard/programs/${programId}/partners`, second, { name: 'Late' }), 60);
    expect(await programsOf(account_id)).toBe(60);
    expect(await store.db.selectFrom('partners').select('id').execute()).toEqual([]);

    // Reads are not writes, and another account has a bucket of its own.
    const read = await json('GET', '/api/dashboard/programs', first);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-limit')).toBe(String(buckets.management.limit));
    const other = await control.createAccount();
    expect(
      (
        await json(
          'POST',
          '/api/dashboard/programs',
          { cookie: (await control.createDashboardSession(other.account_id)).cookie },
          program(0),
        )
      ).status,
    ).toBe(201);

    // The next window is open again.
    await control.clock({ advance_seconds: 60 });
    expect((await json('POST', '/api/dashboard/programs', first, program(62))).status).toBe(201);
  });

  it('a write without a valid session is counted per IP only (and answers 401)', async () => {
    for (let i = 0; i < 70; i++)
      expect((await json('POST', '/api/dashboard/programs', { cookie: 'svc_session=nope' }, program(i))).status).toBe(401);
    const { account_id } = await control.createAccount();
    expect(
      (await json('POST', '/api/dashboard/programs', { cookie: (await control.createDashboardSession(account_id)).cookie }, program(0)))
        .status,
    ).toBe(201);
  });
});

/** A GET from another loopback address: Linux routes all of 127.0.0.0/8 to the server. */
function getFrom(localAddress: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: 'GET', headers, localAddress }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        assertValidResponse({ method: 'GET', url: path, status: res.statusCode ?? 0, headers: res.headers, body });
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('requests per client IP', () => {
  it('300 a minute over the dashboard, partner view, sign-in posts and CLI account routes, whoever is signed in', async () => {
    expect(buckets.management.limit).toBe(300);
    const a = await control.createProgram({ name: 'A', domain: 'a.example' });
    const b = await control.createAccount();
    const cookieA = { cookie: (await control.createDashboardSession(a.account_id)).cookie };
    const cookieB = { cookie: (await control.createDashboardSession(b.account_id)).cookie };
    const cli = { authorization: `Bearer ${await loginToken(b.account_id)}` };

    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await json('GET', `/api/tracking/status/${a.id}`, cookieA)).status);
    for (let i = 0; i < 80; i++) statuses.push((await json('GET', '/api/partner', cookieB)).status);
    for (let i = 0; i < 50; i++) statuses.push((await json('GET', '/api/dashboard/session', {})).status);
    for (let i = 0; i < 40; i++) statuses.push((await json('GET', '/api/v1/cli/programs', cli)).status);
    for (let i = 0; i < 30; i++)
      statuses.push((await contractFetch(`${base}/auth/sign-out`, { method: 'POST', redirect: 'manual' })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(220);
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.filter((s) => s === 303)).toHaveLength(30);

    // The 301st, whatever the route or account: refused, nothing read or written.
    await expectLimited(await json('GET', '/api/dashboard/session', cookieB), 300);
    await expectLimited(await json('GET', '/api/v1/cli/programs', cli), 300);
    await expectLimited(await json('POST', '/api/tracking/test', cookieA, { program_id: a.id, event_type: 'click' }), 300);
    const signIn = await contractFetch(`${base}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=x%40y.example&csrf=z',
    });
    await expectLimited(signIn, 300);
    expect((await control.records(a.id)).clicks).toEqual([]);

    // Not these limits: the tracking API, the dashboard page, and another client address.
    expect((await json('POST', '/api/v1/track/click', {}, {})).status).toBe(400);
    expect((await fetch(`${base}/dashboard`)).status).toBe(200);
    expect((await getFrom('127.0.0.2', '/api/dashboard/session', cookieB)).status).toBe(200);

    await control.clock({ advance_seconds: 60 });
    expect((await json('GET', '/api/dashboard/session', cookieB)).status).toBe(200);
  });
});
