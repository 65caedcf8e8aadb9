import { createHash } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';
import { startIssuer, type TestIssuer } from './issuer';

// A production-shaped server: OpenID Connect only (no test control, so no development sign-in), signing people in
// through a real OpenID Provider (oidc-provider) driven in Chromium.
let issuer: TestIssuer;
let server: ReferenceServer;
let browser: Browser;

beforeAll(async () => {
  issuer = await startIssuer({
    alice: { email: 'alice@idp.example', email_verified: true },
    bob: { email: 'bob@idp.example', email_verified: true },
    carol: { email: 'carol@idp.example', email_verified: false },
    dave: { email: 'dave@idp.example' },
  });
  server = await startReferenceServer({
    oidc: { issuer: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret },
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  issuer.serve(`${server.url}/auth/callback`);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await issuer?.close();
});

/** At the issuer: its login form (any password), then its consent page. */
async function signInAtIssuer(page: Page, login: string): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(issuer.url));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

const accountRows = (email: string) => server.store.db.selectFrom('accounts').selectAll().where('email', '=', email).execute();

describe('OpenID Connect sign-in in Chromium', () => {
  it("signs in to the dashboard as the issuer's email, keyed by issuer + subject, with an HttpOnly session cookie", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    let authorizeUrl: URL | undefined;
    page.on('request', (request) => {
      if (request.url().startsWith(`${issuer.url}/auth?`)) authorizeUrl = new URL(request.url());
    });
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signInAtIssuer(page, 'alice');
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => page.locator('#account-email').textContent()).toBe('alice@idp.example');

    expect(authorizeUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl?.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(authorizeUrl?.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(authorizeUrl?.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);

    const session = await page.evaluate(() => fetch('/api/dashboard/session').then((r) => r.json()));
    expect(session.data.email).toBe('alice@idp.example');
    const [row] = await accountRows('alice@idp.example');
    expect(row).toMatchObject({ oidc_issuer: issuer.url, oidc_subject: 'alice' });
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await context.close();
  });

  it('logs the CLI in only after Authorize beside the same user code, then the login token lists programs', async () => {
    const started = await contractFetch(`${server.url}/api/v1/cli/auth/start`, { method: 'POST' }).then((r) => r.json());
    const { state, user_code, sign_in_url } = started.data;
    const poll = () => contractFetch(`${server.url}/api/v1/cli/auth/poll?state=${state}`).then((r) => r.json());

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(sign_in_url);
    await signInAtIssuer(page, 'bob');
    await expect.poll(() => page.locator('#user-code').textContent()).toBe(user_code);
    expect((await poll()).data.status).toBe('pending');

    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('You are signed in');
    const done = await poll();
    expect(done.data).toMatchObject({ status: 'complete', email: 'bob@idp.example' });
    const programs = await contractFetch(`${server.url}/api/v1/cli/programs`, { headers: { authorization: `Bearer ${done.data.token}` } });
    expect(programs.status).toBe(200);
    await context.close();
  });

  // The email decides which partner records an account sees: only an email the issuer vouches for counts.
  it.each([
    ['says email_verified: false', 'carol'],
    ['says nothing about the email', 'dave'],
  ])('refuses an email the issuer %s, creating nothing', async (_case, login) => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/auth/sign-in`);
    await signInAtIssuer(page, login);
    await expect
      .poll(() => page.locator('[role=alert]').textContent())
      .toBe('Your identity provider has not verified your email address. Verify it there, then sign in again.');
    expect(await accountRows(`${login}@idp.example`)).toHaveLength(0);
    await page.close();
  });

  it('refuses a replayed callback, a callback from another browser and an error from the issuer', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    let callback: string | undefined;
    page.on('request', (request) => {
      if (request.url().startsWith(`${server.url}/auth/callback`)) callback = request.url();
    });
    await page.goto(`${server.url}/auth/sign-in`);
    await signInAtIssuer(page, 'alice');
    await page.waitForURL(`${server.url}/dashboard`);
    expect(callback).toBeDefined();

    // The same browser, the same callback URL again: its state is used up.
    const replay = await page.goto(callback!);
    expect(replay?.status()).toBe(400);
    expect(await page.locator('[role=alert]').textContent()).toBe(
      'This sign-in link is invalid, expired or already used. Start again from the sign-in page.',
    );

    // A fresh sign-in's callback URL opened by a browser that did not start it (login CSRF).
    const sessionsBefore = await server.store.db.selectFrom('dashboard_sessions').selectAll().execute();
    const begun = await contractFetch(`${server.url}/auth/sign-in`, { redirect: 'manual' });
    const location = new URL(begun.headers.get('location')!);
    const foreign = await contractFetch(`${server.url}/auth/callback?code=stolen&state=${location.searchParams.get('state')}`);
    expect(foreign.status).toBe(400);

    // The issuer reports an error for a state this browser did start.
    const stateCookie = begun.headers.get('set-cookie')!.split(';')[0]!;
    const refused = await contractFetch(`${server.url}/auth/callback?error=access_denied&state=${location.searchParams.get('state')}`, {
      headers: { cookie: stateCookie },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('The identity provider did not complete the sign-in.');
    expect(await server.store.db.selectFrom('dashboard_sessions').selectAll().execute()).toEqual(sessionsBefore);
    await context.close();
  });

  it('has no development sign-in: POST /auth/sign-in sets no session', async () => {
    const res = await contractFetch(`${server.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=alice%40idp.example',
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('POST /api/v1/cli/auth/callback trusts only the issuer', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const claims = { email: 'alice@idp.example', email_verified: true };
  // The nonce binding the token to one CLI login: base64url(SHA-256(state)) (spec/openapi.yaml, cliAuthCallback).
  const nonceOf = (state: string) => createHash('sha256').update(state).digest('base64url');
  const token = (build: (jwt: SignJWT) => SignJWT) => (state: string) =>
    build(
      new SignJWT({ ...claims, nonce: nonceOf(state) })
        .setIssuer(issuer.url)
        .setSubject('alice')
        .setAudience(issuer.clientId)
        .setIssuedAt()
        .setExpirationTime(now() + 300),
    );
  type Forge = (state: string) => Promise<string>;
  const signed =
    (build: (jwt: SignJWT) => SignJWT): Forge =>
    (state) =>
      token((jwt) => build(jwt.setProtectedHeader({ alg: 'RS256', kid: issuer.kid })))(state).sign(issuer.privateKey);

  async function callback(forge: Forge) {
    const { data } = await contractFetch(`${server.url}/api/v1/cli/auth/start`, { method: 'POST' }).then((r) => r.json());
    const idToken = await forge(data.state);
    const res = await contractFetch(`${server.url}/api/v1/cli/auth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: data.state, id_token: idToken }),
    });
    const poll = await contractFetch(`${server.url}/api/v1/cli/auth/poll?state=${data.state}`).then((r) => r.json());
    return { status: res.status, body: await res.json(), poll: poll.data };
  }

  it('accepts an ID token the issuer signed for this client', async () => {
    const result = await callback(signed((jwt) => jwt));
    expect(result.status).toBe(200);
    expect(result.poll).toMatchObject({ status: 'complete', email: 'alice@idp.example' });
  });

  it.each<[string, Forge]>([
    [
      'alg none',
      async (state) => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const body = Buffer.from(
          JSON.stringify({
            ...claims,
            nonce: nonceOf(state),
            iss: issuer.url,
            sub: 'alice',
            aud: issuer.clientId,
            iat: now(),
            exp: now() + 300,
          }),
        ).toString('base64url');
        return `${header}.${body}.`;
      },
    ],
    [
      'HS256 keyed with the client secret',
      (state) =>
        token((jwt) => jwt.setProtectedHeader({ alg: 'HS256', kid: issuer.kid }))(state).sign(
          new TextEncoder().encode(issuer.clientSecret),
        ),
    ],
    [
      "another RSA key under the issuer's kid",
      async (state) => {
        const { privateKey } = await generateKeyPair('RS256');
        return token((jwt) => jwt.setProtectedHeader({ alg: 'RS256', kid: issuer.kid }))(state).sign(privateKey);
      },
    ],
    ['another audience', signed((jwt) => jwt.setAudience('someone-else'))],
    ['expired', signed((jwt) => jwt.setIssuedAt(now() - 600).setExpirationTime(now() - 300))],
    ['another issuer', signed((jwt) => jwt.setIssuer('https://evil.example'))],
    // Captured elsewhere: a valid token of the issuer, but not made for this login.
    [
      'no nonce',
      () =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: issuer.kid })
          .setIssuer(issuer.url)
          .setSubject('alice')
          .setAudience(issuer.clientId)
          .setIssuedAt()
          .setExpirationTime(now() + 300)
          .sign(issuer.privateKey),
    ],
    ["another login's nonce", () => signed((jwt) => jwt)('the-state-of-another-login')],
    ['issued over 5 minutes ago, still unexpired', signed((jwt) => jwt.setIssuedAt(now() - 400).setExpirationTime(now() + 3_600))],
  ])('refuses a forged token (%s) with 401, and the login stays pending', async (_name, forge) => {
    const result = await callback(forge);
    expect(result.status).toBe(401);
    expect(result.body.error.message).toBe('Invalid id_token');
    expect(result.poll.status).toBe('pending');
  });
});

// SVC_OIDC_EMAILS_VERIFIED=1 speaks only for an absent claim: an issuer that says "false" (as a string, as some
// send it) is believed, and the sign-in refused.
describe('SVC_OIDC_EMAILS_VERIFIED=1 and the email_verified claim', () => {
  let trusting: ReferenceServer;
  beforeAll(async () => {
    trusting = await startReferenceServer({
      oidc: { issuer: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret, emailsVerified: true },
      ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    });
  });
  afterAll(() => trusting?.close());

  async function callbackWith(claims: Record<string, unknown>) {
    const { data } = await contractFetch(`${trusting.url}/api/v1/cli/auth/start`, { method: 'POST' }).then((r) => r.json());
    const idToken = await new SignJWT({ ...claims, nonce: createHash('sha256').update(data.state).digest('base64url') })
      .setProtectedHeader({ alg: 'RS256', kid: issuer.kid })
      .setIssuer(issuer.url)
      .setSubject(`subject-${String(claims.email)}`)
      .setAudience(issuer.clientId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
      .sign(issuer.privateKey);
    const res = await contractFetch(`${trusting.url}/api/v1/cli/auth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: data.state, id_token: idToken }),
    });
    const accounts = await trusting.store.db.selectFrom('accounts').selectAll().where('email', '=', String(claims.email)).execute();
    return { status: res.status, body: await res.json(), accounts };
  }

  it.each([
    ['"false"', 'false', 'string-false'],
    ['false', false, 'boolean-false'],
    ['null', null, 'null'],
  ])('refuses email_verified: %s, creating nothing', async (_case, claim, user) => {
    const result = await callbackWith({ email: `${user}@idp.example`, email_verified: claim });
    expect(result.status).toBe(403);
    expect(result.body.error.message).toBe(
      'Your identity provider has not verified your email address. Verify it there, then sign in again.',
    );
    expect(result.accounts).toHaveLength(0);
  });

  it.each([
    ['absent', {}],
    ['"true"', { email_verified: 'true' }],
  ])('accepts email_verified %s', async (name, claim) => {
    const email = `verified-${name.replaceAll('"', '')}@idp.example`;
    const result = await callbackWith({ email, ...claim });
    expect(result.status).toBe(200);
    expect(result.accounts).toHaveLength(1);
  });
});
