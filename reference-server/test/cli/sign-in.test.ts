import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { assertValidResponse } from '../../src/testing/validate';
import { harnessPerFile } from '../harness';
import { htmlRequest } from './support';

const t = harnessPerFile();

const signIn = (fields: Record<string, string>, headers?: Record<string, string>) =>
  htmlRequest(t.h, 'POST', '/auth/sign-in', { form: fields, ...(headers ? { headers } : {}) });

describe('development sign-in page', () => {
  it('shows an email form that carries the CLI state', async () => {
    const res = await htmlRequest(t.h, 'GET', '/auth/sign-in?state=abc%22%3C');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('name="email"');
    expect(res.text).toContain('name="state" value="abc&quot;&lt;"');
  });

  it('completes the CLI login, creating the dev account on first use', async () => {
    const start = await t.h.request('POST', '/api/v1/cli/auth/start');
    const { state } = start.body.data;
    const res = await signIn({ email: 'New.Dev@Example.test', state });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Return to your terminal');
    expect(res.headers['set-cookie']).toBeUndefined();

    const poll = await t.h.request('GET', `/api/v1/cli/auth/poll?state=${state}`);
    expect(poll.body.data).toMatchObject({ status: 'complete', email: 'new.dev@example.test' });
    const account = await t.h.store.db.selectFrom('accounts').selectAll().where('email', '=', 'new.dev@example.test').execute();
    expect(account).toHaveLength(1);
    const owner = await t.h.store.db.selectFrom('memberships').selectAll().where('account_id', '=', account[0]!.id).execute();
    expect(owner).toMatchObject([{ role: 'owner', active: 1 }]);

    // The same email signs in to the same account.
    const again = await t.h.request('POST', '/api/v1/cli/auth/start');
    await signIn({ email: 'new.dev@example.test', state: again.body.data.state });
    expect(await t.h.store.db.selectFrom('accounts').selectAll().execute()).toHaveLength(1);
  });

  it('shows why a CLI sign-in cannot complete (expired, used)', async () => {
    const { state } = (await t.h.request('POST', '/api/v1/cli/auth/start')).body.data;
    await t.h.control.clock({ advance_seconds: 301 });
    const expired = await signIn({ email: 'a@example.test', state });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('Session expired');
    expect(expired.text).toContain('Run svc login again to start a new sign-in.');
    const unknown = await signIn({ email: 'a@example.test', state: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Session not found or already used');
  });

  it('refuses a suspended account, and does not suggest signing in again (§Authentication rule 4)', async () => {
    await t.h.control.createAccount({ email: 'blocked@example.test', blocked: true });
    const { state } = (await t.h.request('POST', '/api/v1/cli/auth/start')).body.data;
    const res = await signIn({ email: 'blocked@example.test', state });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Your account has been suspended.');
    expect(res.text).toContain('Signing in again will not help while the account is suspended. Contact your workspace owner or support.');
    expect(res.text).not.toContain('svc login again');
    expect((await t.h.request('GET', `/api/v1/cli/auth/poll?state=${state}`)).body.data.status).toBe('pending');
    const dashboard = await signIn({ email: 'blocked@example.test' });
    expect(dashboard.status).toBe(403);
    expect(dashboard.text).toContain('Signing in again will not help');
    expect(dashboard.headers['set-cookie']).toBeUndefined();
  });

  it('refuses what is not an email address', async () => {
    const res = await signIn({ email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Enter a valid email address.');
  });

  it('without state, starts a dashboard session cookie and redirects to the dashboard', async () => {
    const res = await signIn({ email: 'owner@example.test' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^svc_session=svc_sess_[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Max-Age=604800');
    expect(cookie).not.toContain('Secure');
    const stored = await t.h.store.db.selectFrom('dashboard_sessions').selectAll().executeTakeFirstOrThrow();
    expect(cookie).not.toContain(stored.token_hash);

    const out = await htmlRequest(t.h, 'POST', '/auth/sign-out', { headers: { cookie: cookie.split(';')[0]! } });
    expect(out.status).toBe(303);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect(await t.h.store.db.selectFrom('dashboard_sessions').selectAll().execute()).toHaveLength(0);
  });

  it('marks the cookie Secure on HTTPS', async () => {
    // A second app on the same store, behind a proxy that says the request came over HTTPS.
    const app = buildApp({ store: t.h.store, testControl: true, trustProxy: true });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
        payload: 'email=owner%40example.test',
      });
      assertValidResponse({ method: 'POST', url: '/auth/sign-in', status: res.statusCode, headers: res.headers, body: res.body });
      expect(res.statusCode).toBe(303);
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await app.close();
    }
  });
});
