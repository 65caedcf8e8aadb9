import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { harnessPerFile } from '../harness';
import { expectCliFailure, startOfMinute } from './support';

const t = harnessPerFile();

const start = async () => (await t.h.request('POST', '/api/v1/cli/auth/start')).body.data as { state: string; sign_in_url: string };
const poll = (state: string) => t.h.request('GET', `/api/v1/cli/auth/poll?state=${encodeURIComponent(state)}`);
const callback = (json: unknown) => t.h.request('POST', '/api/v1/cli/auth/callback', { json });

describe('POST /api/v1/cli/auth/start', () => {
  it('creates a session that expires in 5 minutes and links to the sign-in page', async () => {
    const { now } = await t.h.control.clock({ advance_seconds: 0 });
    const res = await t.h.request('POST', '/api/v1/cli/auth/start', { json: {} });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    const { state, sign_in_url, expires_at, poll_interval_seconds } = res.body.data;
    expect(state).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const url = new URL(sign_in_url);
    expect(url.pathname).toBe('/auth/sign-in');
    expect(url.searchParams.get('state')).toBe(state);
    const lifetime = Date.parse(expires_at) - Date.parse(now);
    expect(lifetime).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000 + 1000);
    expect(poll_interval_seconds).toBeGreaterThanOrEqual(1);
  });

  it('answers a failure with the request id at the end of the message', async () => {
    await t.h.control.armFault({ point: 'cli' });
    expectCliFailure(await t.h.request('POST', '/api/v1/cli/auth/start'), 'Failed to start auth session');
  });
});

describe('POST /api/v1/cli/auth/callback', () => {
  it('requires state and id_token', async () => {
    for (const body of [{}, { state: 'x' }, { id_token: 'y' }, { state: '', id_token: 'y' }, { state: 1, id_token: 'y' }]) {
      const res = await callback(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        status: 400,
        name: 'BadRequestError',
        message: 'Missing required fields: state, id_token',
        details: {},
      });
    }
  });

  it('answers 404 for an unknown session and for one already used', async () => {
    const { account_id } = await t.h.control.createAccount();
    const { id_token } = await t.h.control.issueIdToken(account_id);
    const unknown = await callback({ state: 'nope', id_token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Session not found or already used');

    const { state } = await start();
    expect((await callback({ state, id_token })).status).toBe(200);
    const again = await callback({ state, id_token });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('Session not found or already used');
  });

  it('refuses a session older than 5 minutes', async () => {
    const { account_id } = await t.h.control.createAccount();
    const { state } = await start();
    await t.h.control.clock({ advance_seconds: 5 * 60 + 1 });
    const { id_token } = await t.h.control.issueIdToken(account_id);
    const res = await callback({ state, id_token });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Session expired');
    expect((await poll(state)).body.data).toEqual({ status: 'expired' });
  });

  it('refuses an id_token that does not verify (signature, audience, expiry)', async () => {
    const { account_id } = await t.h.control.createAccount();
    const { state } = await start();
    const forged = await new SignJWT({ email: 'x@example.test' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('http://127.0.0.1:8787')
      .setAudience('svc-cli')
      .setSubject(String(account_id))
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('not-the-server-secret-not-the-server-secret'));
    for (const token of [forged, 'garbage']) {
      const res = await callback({ state, id_token: token });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('Invalid id_token');
    }
    // An id_token lives 5 minutes: issued, then presented 6 minutes later to a fresh session.
    const { id_token } = await t.h.control.issueIdToken(account_id);
    await t.h.control.clock({ advance_seconds: 6 * 60 });
    const fresh = await start();
    const expired = await callback({ state: fresh.state, id_token });
    expect(expired.status).toBe(401);
    expect((await poll(fresh.state)).body.data.status).toBe('pending');
  });

  it('refuses a suspended account with ACCOUNT_BLOCKED, again on retry, and never hands out a token', async () => {
    const { account_id } = await t.h.control.createAccount({ blocked: true });
    const { state } = await start();
    const { id_token } = await t.h.control.issueIdToken(account_id);
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await callback({ state, id_token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        data: null,
        error: { status: 403, name: 'ForbiddenError', message: 'Your account has been suspended.', details: { code: 'ACCOUNT_BLOCKED' } },
      });
    }
    expect((await poll(state)).body.data).toEqual({ status: 'pending' });
  });

  it('answers a failure with the request id at the end of the message', async () => {
    const { account_id } = await t.h.control.createAccount();
    const { state } = await start();
    const { id_token } = await t.h.control.issueIdToken(account_id);
    await t.h.control.armFault({ point: 'cli' });
    expectCliFailure(await callback({ state, id_token }), 'Auth callback failed');
    // Nothing was completed: the session still takes the sign-in.
    expect((await callback({ state, id_token })).status).toBe(200);
  });
});

describe('GET /api/v1/cli/auth/poll', () => {
  it('is pending before sign-in, hands the token out once, then answers Session already consumed', async () => {
    const { account_id, advertiser_id } = await t.h.control.createAccount({ email: 'dev@example.test' });
    const { state } = await start();
    const pending = await poll(state);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ data: { status: 'pending' } });

    const { id_token } = await t.h.control.issueIdToken(account_id);
    expect((await callback({ state, id_token })).body).toEqual({ data: { status: 'signed_in' } });

    const first = await poll(state);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'complete', account_id, advertiser_id, email: 'dev@example.test' });
    expect(first.body.data.token).toMatch(/^svc_login_[A-Za-z0-9_-]{43}$/);
    const lifetime = Date.parse(first.body.data.token_expires_at) - Date.now();
    expect(Math.abs(lifetime - 30 * 24 * 3600_000)).toBeLessThan(60_000);

    const second = await poll(state);
    expect(second.status).toBe(400);
    expect(second.body.error).toEqual({
      status: 400,
      name: 'BadRequestError',
      message: 'Session already consumed',
      details: { code: 'session_consumed' },
    });
  });

  it('answers expired for a session older than 5 minutes that was never signed in', async () => {
    const { state } = await start();
    await t.h.control.clock({ advance_seconds: 4 * 60 });
    expect((await poll(state)).body.data.status).toBe('pending');
    await t.h.control.clock({ advance_seconds: 61 });
    const res = await poll(state);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'expired' } });
  });

  it('answers expired for a session signed in but not polled within 5 minutes, and hands out no token', async () => {
    const { account_id } = await t.h.control.createAccount();
    const { state } = await start();
    const { id_token } = await t.h.control.issueIdToken(account_id);
    expect((await callback({ state, id_token })).status).toBe(200);
    // spec/rules.md "States and transitions": a session older than 5 minutes is expired whether or not it was signed in.
    await t.h.control.clock({ advance_seconds: 5 * 60 + 1 });
    const res = await poll(state);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'expired' } });
    expect(await t.h.store.db.selectFrom('login_tokens').selectAll().execute()).toEqual([]);
  });

  it('requires state and knows its sessions', async () => {
    const missing = await t.h.request('GET', '/api/v1/cli/auth/poll');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Missing state parameter');
    const unknown = await poll('nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Session not found');
  });

  it('answers a failure with the request id, and the token is still handed out afterwards', async () => {
    const { account_id } = await t.h.control.createAccount();
    const { state } = await start();
    const { id_token } = await t.h.control.issueIdToken(account_id);
    await callback({ state, id_token });
    await t.h.control.armFault({ point: 'cli' });
    expectCliFailure(await poll(state), 'Failed to poll auth session');
    expect((await poll(state)).body.data.status).toBe('complete');
  });

  it('counts against the /cli/* limit of 60 per minute (per IP without a key)', async () => {
    await startOfMinute(t.h);
    for (let i = 0; i < 60; i++) expect((await poll('nope')).status).toBe(404);
    const limited = await poll('nope');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', status: 429, message: 'Too many requests.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('/api/v1/cli/auth/* rate limit', () => {
  // spec/rules.md "Authentication": these routes take no credential, so a Bearer header must not buy a fresh bucket.
  it('counts per client IP whatever Bearer arrives: a made-up token per request is refused after 60', async () => {
    await startOfMinute(t.h);
    for (let i = 0; i < 60; i++) {
      const res = await t.h.request('POST', '/api/v1/cli/auth/start', { key: `fake${i}` });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(59 - i));
    }
    for (const [method, path] of [
      ['POST', '/api/v1/cli/auth/start'],
      ['POST', '/api/v1/cli/auth/callback'],
      ['GET', '/api/v1/cli/auth/poll?state=nope'],
    ] as const) {
      const limited = await t.h.request(method, path, { key: `fake-${path}`, json: method === 'POST' ? {} : undefined });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatchObject({ code: 'rate_limited', status: 429, message: 'Too many requests.' });
    }
    // Refused before the route: no login session past the limit.
    expect(await t.h.store.db.selectFrom('login_sessions').selectAll().execute()).toHaveLength(60);
  });
});
