import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config';
import { assertValidResponse } from '../../src/testing/validate';
import { createHarness, type Harness } from '../harness';
import { click, nowSeconds, serverLead, svcMetadata } from '../webhooks/setup';
import { checkoutSessionCompleted, deliver } from '../webhooks/stripe-events';
import { startStripeConnectStandIn, type StripeConnectStandIn } from './stripe-connect-stand-in';

// "Connect with Stripe" (spec/openapi.yaml dashboardStartProcessorConnect, processorConnectCallback): Stripe
// Connect OAuth through a signed-in dashboard session, against a local stand-in of Stripe's two OAuth endpoints.
const webhookSecret = 'whsec_connect_flow_tests';

describe('Connect with Stripe', () => {
  let h: Harness;
  let stripe: StripeConnectStandIn;
  let logs: string[];
  let program: { id: number; api_token: string; account_id: number };
  let owner: string;

  beforeEach(async () => {
    stripe = await startStripeConnectStandIn();
    logs = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    h = await createHarness({
      processorWebhookSecrets: [webhookSecret],
      publicUrl: 'https://svc.example.test',
      stripeConnect: { clientId: stripe.clientId, secretKey: stripe.secretKey, connectUrl: stripe.url },
      log: { level: 'info', stream },
    });
    program = await h.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
    owner = (await h.control.createDashboardSession(program.account_id)).cookie;
  });
  afterEach(async () => {
    await h.close();
    await stripe.close();
  });

  const boundAccount = async (programId: number) =>
    (await h.store.db.selectFrom('programs').select('processor_account').where('id', '=', programId).executeTakeFirstOrThrow())
      .processor_account;

  /** The dashboard's link, then Stripe's consent: answers where Stripe sends the browser back. */
  async function consent(cookie = owner, programId = program.id) {
    const start = await h.request('GET', `/api/dashboard/programs/${programId}/processor/connect`, { headers: { cookie } });
    expect(start.status, start.text).toBe(302);
    const authorize = new URL(String(start.headers.location));
    const answer = await fetch(authorize, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location')!);
    return { authorize, back, path: back.pathname + back.search };
  }

  /** The browser's request to the callback (a page or a redirect), validated against the spec. */
  async function callback(path: string, cookie: string | null = owner) {
    const res = await h.app.inject({ method: 'GET', url: path, headers: cookie === null ? {} : { cookie } });
    assertValidResponse({ method: 'GET', url: path, status: res.statusCode, headers: res.headers, body: res.body });
    return { status: res.statusCode, location: res.headers.location, text: res.body };
  }

  it('binds the account Stripe names after the owner consents, and its events then pay the program', async () => {
    stripe.account = 'acct_ownersshop1';
    const { authorize, back, path } = await consent();
    expect(authorize.origin + authorize.pathname).toBe(`${stripe.url}/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      response_type: 'code',
      client_id: stripe.clientId,
      scope: 'read_write',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      redirect_uri: 'https://svc.example.test/processor/callback',
    });
    expect(back.origin + back.pathname).toBe('https://svc.example.test/processor/callback');

    const done = await callback(path);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/dashboard/programs/${program.id}/settings`);
    expect(await boundAccount(program.id)).toBe('acct_ownersshop1');
    expect(stripe.tokenRequests).toEqual([{ code: back.searchParams.get('code'), status: 200 }]);
    const status = await h.request('GET', `/api/tracking/status/${program.id}`, { headers: { cookie: owner } });
    expect(status.body.data.integration).toMatchObject({ processor_connected: true, processor_account: 'acct_ownersshop1' });

    // The state is kept only hashed; neither it, the code nor the secret key reaches the logs.
    const state = authorize.searchParams.get('state')!;
    const rows = await h.store.db.selectFrom('processor_connect_states').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(state);
    const written = logs.join('');
    for (const secret of [state, back.searchParams.get('code')!, stripe.secretKey]) expect(written).not.toContain(secret);

    // A Connect event of the bound account is the program's.
    const partner = await h.control.createPartner({ program_id: program.id });
    const link = await h.control.createLink({ program_id: program.id, partner_id: partner.id });
    const clickId = await click(h, link.short_link);
    await serverLead(h, program.api_token, clickId, 'buyer_connect');
    const paid = await deliver(
      h,
      webhookSecret,
      checkoutSessionCompleted({
        account: 'acct_ownersshop1',
        created: await nowSeconds(h),
        metadata: svcMetadata(program.id, clickId, 'buyer_connect'),
      }),
    );
    expect(paid.body).toMatchObject({ outcome: 'recorded' });
  });

  it('refuses a replayed callback: the state is used once, the code is not exchanged again', async () => {
    const { path } = await consent();
    expect((await callback(path)).status).toBe(303);
    await h.request('PUT', `/api/dashboard/programs/${program.id}/processor`, {
      headers: { cookie: owner },
      json: { processor_account: null },
    });
    const replay = await callback(path);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('This Stripe connection link is invalid, expired, already used or not yours.');
    expect(await boundAccount(program.id)).toBeNull();
    expect(stripe.tokenRequests).toHaveLength(1);
  });

  it("refuses a state it never issued, a missing one, an expired one and another session's", async () => {
    const { back } = await consent();
    const state = back.searchParams.get('state')!;
    const code = back.searchParams.get('code')!;
    const withState = (value: string | undefined) =>
      `/processor/callback?code=${code}${value === undefined ? '' : `&state=${encodeURIComponent(value)}`}`;

    // Another account (owner of its own program) holding the owner's callback URL binds nothing and spends nothing.
    const stranger = await h.control.createProgram({});
    const strangerCookie = (await h.control.createDashboardSession(stranger.account_id)).cookie;
    for (const [path, cookie] of [
      [withState(`${state}x`), owner],
      [withState(undefined), owner],
      [withState(state), strangerCookie],
    ] as const) {
      const res = await callback(path, cookie);
      expect(res.status, path).toBe(400);
      expect(res.text).toContain('This Stripe connection link is invalid, expired, already used or not yours.');
    }
    const signedOut = await callback(withState(state), null);
    expect(signedOut.status).toBe(401);
    expect(stripe.tokenRequests).toEqual([]);
    expect(await boundAccount(program.id)).toBeNull();
    expect(await boundAccount(stranger.id)).toBeNull();

    // Still the owner's to finish, until it expires (10 minutes).
    await h.control.clock({ advance_seconds: 601 });
    const late = await callback(withState(state));
    expect(late.status).toBe(400);
    expect(stripe.tokenRequests).toEqual([]);
    expect(await boundAccount(program.id)).toBeNull();
  });

  it("a stranger's earlier claim of the account never diverts or blocks the owner's payments", async () => {
    // The stranger's program held the owner's account id (a hand-typed claim from before "Connect with Stripe").
    const stranger = await h.control.createProgram({});
    await h.control.connectProcessor({ program_id: stranger.id, account: 'acct_contested' });
    expect(
      (
        await h.request('PUT', `/api/dashboard/programs/${program.id}/processor`, {
          headers: { cookie: owner },
          json: { processor_account: 'acct_contested' },
        })
      ).status,
    ).toBe(400);

    stripe.account = 'acct_contested';
    expect((await callback((await consent()).path)).status).toBe(303);
    expect(await boundAccount(program.id)).toBe('acct_contested');
    expect(await boundAccount(stranger.id)).toBeNull();

    const partner = await h.control.createPartner({ program_id: program.id });
    const link = await h.control.createLink({ program_id: program.id, partner_id: partner.id });
    const clickId = await click(h, link.short_link);
    await serverLead(h, program.api_token, clickId, 'buyer_contested');
    const created = await nowSeconds(h);
    const owners = await deliver(
      h,
      webhookSecret,
      checkoutSessionCompleted({ account: 'acct_contested', created, metadata: svcMetadata(program.id, clickId, 'buyer_contested') }),
    );
    expect(owners.body).toMatchObject({ outcome: 'recorded' });
    const diverted = await deliver(
      h,
      webhookSecret,
      checkoutSessionCompleted({
        account: 'acct_contested',
        created,
        metadata: { ...svcMetadata(stranger.id, clickId, 'buyer_contested') },
      }),
    );
    expect(diverted.status).toBe(400);
    expect(diverted.body.error.message).toBe('metadata.program_id does not match the program connected to this processor account');
    expect((await h.control.records(stranger.id)).sales).toEqual([]);
    expect((await h.control.records(program.id)).sales).toHaveLength(1);
  });

  it('two proven binds of one account at once both finish, and exactly one program holds it', async () => {
    const other = await h.control.createProgram({});
    const otherOwner = (await h.control.createDashboardSession(other.account_id)).cookie;
    stripe.account = 'acct_raced';
    const mine = await consent();
    const theirs = await consent(otherOwner, other.id);
    const answers = await Promise.all([callback(mine.path), callback(theirs.path, otherOwner)]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const holders = [await boundAccount(program.id), await boundAccount(other.id)].filter((a) => a === 'acct_raced');
    expect(holders).toHaveLength(1);
  });

  it('the owner declining on Stripe binds nothing and says so', async () => {
    stripe.decline = true;
    const { back, path } = await consent();
    expect(back.searchParams.get('error')).toBe('access_denied');
    const res = await callback(path);
    expect(res.status).toBe(400);
    expect(res.text).toContain('The Stripe account was not connected: the connection was declined on Stripe.');
    expect(res.text).toContain('Stripe said: The user denied your request');
    expect(res.text).toContain('href="/dashboard"');
    expect(stripe.tokenRequests).toEqual([]);
    expect(await boundAccount(program.id)).toBeNull();
  });

  it("Stripe's refusal of the code (wrong secret key) binds nothing and shows Stripe's words", async () => {
    const { path } = await consent();
    stripe.secretKey = 'sk_test_rotated_elsewhere';
    const res = await callback(path);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Stripe refused to connect the account.');
    expect(res.text).toContain('Stripe said: Invalid API Key provided:');
    expect(stripe.tokenRequests).toEqual([{ code: expect.any(String), status: 401 }]);
    expect(await boundAccount(program.id)).toBeNull();
  });

  it('Stripe unreachable: 503 page, reported in the log, nothing bound', async () => {
    const { path } = await consent();
    await stripe.close();
    const res = await callback(path);
    expect(res.status).toBe(503);
    expect(res.text).toContain('Stripe could not be reached to finish connecting the account. Try again in a moment.');
    expect(logs.join('')).toContain('Connect with Stripe refused');
    expect(await boundAccount(program.id)).toBeNull();
    stripe = await startStripeConnectStandIn(); // afterEach closes it
  });

  it('only owners connect, and only from the dashboard itself', async () => {
    const { account_id } = await h.control.createAccount();
    await h.control.addMembership({ account_id, program_id: program.id, role: 'member' });
    const member = (await h.control.createDashboardSession(account_id)).cookie;
    const refused = await h.request('GET', `/api/dashboard/programs/${program.id}/processor/connect`, { headers: { cookie: member } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only a workspace owner can connect the payment processor');
    const crossSite = await h.request('GET', `/api/dashboard/programs/${program.id}/processor/connect`, {
      headers: { cookie: owner, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(await h.store.db.selectFrom('processor_connect_states').selectAll().execute()).toEqual([]);

    // A state begun by an owner who is demoted before coming back binds nothing.
    const { path } = await consent();
    await h.store.db.updateTable('memberships').set({ role: 'member' }).where('account_id', '=', program.account_id).execute();
    const demoted = await callback(path);
    expect(demoted.status).toBe(403);
    expect(await boundAccount(program.id)).toBeNull();
  });
});

describe('Connect with Stripe: configuration', () => {
  it('unconfigured, the connect link answers 503 naming what to set', async () => {
    const h = await createHarness();
    try {
      const program = await h.control.createProgram({});
      const cookie = (await h.control.createDashboardSession(program.account_id)).cookie;
      const res = await h.request('GET', `/api/dashboard/programs/${program.id}/processor/connect`, { headers: { cookie } });
      expect(res.status).toBe(503);
      expect(res.body.error.message).toBe(
        'Connect with Stripe is not configured on this server: set SVC_STRIPE_CLIENT_ID and SVC_STRIPE_SECRET_KEY (see docs/deploying.md)',
      );
      expect(await h.store.db.selectFrom('processor_connect_states').selectAll().execute()).toEqual([]);
      // Its callback does not exist for this server.
      const callback = await h.request('GET', '/processor/callback?code=ac_1&state=x', { headers: { cookie } });
      expect(callback.status).toBe(404);
      expect(callback.body.error.message).toBe('Route not found');
    } finally {
      await h.close();
    }
  });

  it('reads SVC_STRIPE_*: all or nothing, Stripe by default', () => {
    expect(readConfig({}).stripeConnect).toBeUndefined();
    expect(readConfig({ SVC_STRIPE_CLIENT_ID: 'ca_1', SVC_STRIPE_SECRET_KEY: 'sk_live_1' }).stripeConnect).toEqual({
      clientId: 'ca_1',
      secretKey: 'sk_live_1',
      connectUrl: 'https://connect.stripe.com',
    });
    expect(() => readConfig({ SVC_STRIPE_CLIENT_ID: 'ca_1' })).toThrow(
      'Connect with Stripe is half configured: set SVC_STRIPE_SECRET_KEY too',
    );
    expect(() => readConfig({ SVC_STRIPE_SECRET_KEY: 'sk_1' })).toThrow('set SVC_STRIPE_CLIENT_ID too');
    expect(() => readConfig({ SVC_STRIPE_CONNECT_URL: 'http://127.0.0.1:9' })).toThrow(
      'set SVC_STRIPE_CLIENT_ID and SVC_STRIPE_SECRET_KEY too',
    );
    expect(() =>
      readConfig({ SVC_STRIPE_CLIENT_ID: 'ca_1', SVC_STRIPE_SECRET_KEY: 'sk_1', SVC_STRIPE_CONNECT_URL: 'connect.stripe.com' }),
    ).toThrow('SVC_STRIPE_CONNECT_URL must be an absolute http(s) URL');
  });
});
