import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { assertValidResponse } from '../../src/testing/validate';
import { harnessPerFile } from '../harness';
import { authorizePage, devSignIn, formPage, htmlRequest, pressAuthorize } from './support';

const t = harnessPerFile();

const signIn = (fields: { email: string; state?: string }, headers?: Record<string, string>) => devSignIn(t.h, fields, headers);

describe('development sign-in page', () => {
  it('shows an email form that carries the CLI state and a CSRF token bound to an HttpOnly cookie', async () => {
    const { page, cookie } = await formPage(t.h, 'abc"<');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('name="email"');
    expect(page.text).toContain('name="state" value="abc&quot;&lt;"');
    expect(String(page.headers['set-cookie'])).toMatch(/^svc_form=[^;]+; HttpOnly; SameSite=Strict; Path=\/auth; Max-Age=600$/);
    expect(cookie).toMatch(/^svc_form=/);
  });

  it('refuses a post without the form token, or with a token from another form (CSRF), creating nothing', async () => {
    const bare = await htmlRequest(t.h, 'POST', '/auth/sign-in', { form: { email: 'csrf@example.test' } });
    expect(bare.status).toBe(403);
    expect(bare.text).toContain('This sign-in form has expired. Reload the page and try again.');
    const mine = await formPage(t.h);
    const theirs = await formPage(t.h);
    const mixed = await htmlRequest(t.h, 'POST', '/auth/sign-in', {
      form: { email: 'csrf@example.test', csrf: theirs.csrf },
      headers: { cookie: mine.cookie },
    });
    expect(mixed.status).toBe(403);
    expect(mixed.headers['set-cookie']).toBeUndefined();
    expect(await t.h.store.db.selectFrom('accounts').selectAll().where('email', '=', 'csrf@example.test').execute()).toHaveLength(0);
  });

  it('refuses a cross-site post (Origin or Sec-Fetch-Site) before anything else', async () => {
    const evil = await signIn({ email: 'x@example.test' }, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.text).error.message).toBe('Cross-site request refused: this route accepts requests from the dashboard only');
    const fetchMeta = await signIn({ email: 'x@example.test' }, { 'sec-fetch-site': 'cross-site' });
    expect(fetchMeta.status).toBe(403);
    const own = await signIn({ email: 'x@example.test' }, { origin: t.h.app.svc.publicUrl, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(303);
  });

  it('completes the CLI login only after Authorize next to the user code, creating the dev account on first use', async () => {
    const start = await t.h.request('POST', '/api/v1/cli/auth/start');
    const { state, user_code } = start.body.data;
    expect(user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    const res = await signIn({ email: 'New.Dev@Example.test', state });
    expect(res.status).toBe(200);
    expect(authorizePage(res.text).userCode).toBe(user_code);
    expect(res.text).toContain('Authorize');
    expect(res.headers['set-cookie']).toBeUndefined();
    // Signed in at the provider, not yet authorized: the poll hands out nothing.
    expect((await t.h.request('GET', `/api/v1/cli/auth/poll?state=${state}`)).body.data.status).toBe('pending');

    const authorized = await pressAuthorize(t.h, res.text);
    expect(authorized.status).toBe(200);
    expect(authorized.text).toContain('Return to your terminal');
    expect((await pressAuthorize(t.h, res.text)).status).toBe(404);

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

  it('keeps only the hash of the login state', async () => {
    const { state } = (await t.h.request('POST', '/api/v1/cli/auth/start')).body.data;
    const rows = await t.h.store.db.selectFrom('login_sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(state);
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

  it('refuses a suspended account, and does not suggest signing in again (spec/rules.md "Authentication" rule 4)', async () => {
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

  it('without state, starts a dashboard session cookie, a new id at every sign-in, and sign-out ends it on the server', async () => {
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
    const first = cookie.split(';')[0]!;

    // Signing in again from the same browser replaces the session: the old id stops working.
    const again = await signIn({ email: 'owner@example.test' }, { cookie: first });
    const second = String(again.headers['set-cookie']).split(';')[0]!;
    expect(second).not.toBe(first);
    expect((await t.h.request('GET', '/api/dashboard/session', { headers: { cookie: first } })).status).toBe(401);
    expect((await t.h.request('GET', '/api/dashboard/session', { headers: { cookie: second } })).status).toBe(200);

    const out = await htmlRequest(t.h, 'POST', '/auth/sign-out', { headers: { cookie: second } });
    expect(out.status).toBe(303);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect(await t.h.store.db.selectFrom('dashboard_sessions').selectAll().execute()).toHaveLength(0);
    expect((await t.h.request('GET', '/api/dashboard/session', { headers: { cookie: second } })).status).toBe(401);
  });

  it('names the cookie __Host-svc_session and marks it Secure when PUBLIC_URL is https, even over a plain-HTTP hop', async () => {
    const app = buildApp({ store: t.h.store, testControl: true, publicUrl: 'https://svc.example.com' });
    try {
      const page = await app.inject({ method: 'GET', url: '/auth/sign-in' });
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      expect(String(page.headers['set-cookie'])).toMatch(/; Secure$/);
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
      const res = await app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: String(page.headers['set-cookie']).split(';')[0]! },
        payload: `email=owner%40example.test&csrf=${encodeURIComponent(csrf)}`,
      });
      assertValidResponse({ method: 'POST', url: '/auth/sign-in', status: res.statusCode, headers: res.headers, body: res.body });
      expect(res.statusCode).toBe(303);
      expect(String(res.headers['set-cookie'])).toMatch(
        /^__Host-svc_session=svc_sess_[^;]+; HttpOnly; SameSite=Lax; Path=\/; Max-Age=604800; Secure$/,
      );
    } finally {
      await app.close();
    }
  });
});

describe('sign-in when nothing is configured (no OpenID Connect, no dev sign-in, no test control)', () => {
  it('says what to configure, and POST /auth/sign-in yields no session', async () => {
    const app = buildApp({ store: t.h.store });
    try {
      const page = await app.inject({ method: 'GET', url: '/auth/sign-in' });
      assertValidResponse({ method: 'GET', url: '/auth/sign-in', status: page.statusCode, headers: page.headers, body: page.body });
      expect(page.statusCode).toBe(503);
      for (const name of ['SVC_OIDC_ISSUER', 'SVC_OIDC_CLIENT_ID', 'SVC_OIDC_CLIENT_SECRET', 'SVC_DEV_SIGN_IN', 'docs/deploying.md']) {
        expect(page.body).toContain(name);
      }
      const post = await app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=anyone%40example.test',
      });
      assertValidResponse({ method: 'POST', url: '/auth/sign-in', status: post.statusCode, headers: post.headers, body: post.body });
      expect(post.statusCode).toBe(404);
      expect(post.headers['set-cookie']).toBeUndefined();
      const dashboard = await app.inject({ method: 'GET', url: '/dashboard' });
      expect(dashboard.body).toContain('href="/auth/sign-in"');
    } finally {
      await app.close();
    }
  });

  it('with SVC_DEV_SIGN_IN alone (no test control), the form signs in', async () => {
    const app = buildApp({ store: t.h.store, devSignIn: true });
    try {
      const page = await app.inject({ method: 'GET', url: '/auth/sign-in' });
      expect(page.statusCode).toBe(200);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const res = await app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: String(page.headers['set-cookie']).split(';')[0]! },
        payload: `email=dev%40example.test&csrf=${encodeURIComponent(csrf)}`,
      });
      expect(res.statusCode).toBe(303);
    } finally {
      await app.close();
    }
  });
});
