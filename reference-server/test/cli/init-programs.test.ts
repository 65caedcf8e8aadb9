import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { buckets } from '../../src/http/rate-limit';
import { expectCliFailure, loginToken, startOfMinute } from './support';

const t = harnessPerFile();

const valid = { name: 'Acme', domain: 'acme.example', commission_type: 'percent', commission_rate: 20 };
const init = (key: string | undefined, json: unknown) =>
  t.h.request('POST', '/api/v1/cli/init', { json, ...(key === undefined ? {} : { key }) });
const message = (res: { body: any }) => res.body.error.message as string;

describe('POST /api/v1/cli/init', () => {
  it('creates a program in the account workspace and returns its key in full, once', async () => {
    const { account_id, advertiser_id } = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);
    const res = await init(token, { ...valid, advertiser_id });
    expect(res.status).toBe(201);
    const { program } = res.body.data;
    expect(program).toMatchObject({
      ...valid,
      advertiser_id,
      attribution_window_days: 60,
      lead_auth: 'server_required',
      allowed_origins: null,
    });
    expect(program.api_token).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);

    // The key works on the program-key routes' auth and is masked everywhere afterwards.
    const listed = await t.h.request('GET', '/api/v1/cli/programs', { key: token });
    expect(listed.body.data.programs).toEqual([{ ...program, api_token: `svc_live_…${program.api_token.slice(-4)}`, role: 'owner' }]);
  });

  it('answers the three 401s of an account-session route', async () => {
    const none = await init(undefined, valid);
    expect(none.status).toBe(401);
    expect(message(none)).toBe('Authentication required — run svc login first');
    expect(message(await t.h.request('POST', '/api/v1/cli/init', { json: valid, headers: { authorization: 'Token x' } }))).toBe(
      'Authentication required — run svc login first',
    );
    expect(message(await init('svc_login_nope', valid))).toBe('Invalid or expired token — run svc login again');

    const { account_id } = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);
    // A login token lives 30 days.
    await t.h.control.clock({ advance_seconds: 30 * 24 * 3600 - 60 });
    expect((await init(token, valid)).status).toBe(201);
    await t.h.control.clock({ advance_seconds: 120 });
    const expired = await init(token, valid);
    expect(expired.status).toBe(401);
    expect(message(expired)).toBe('Invalid or expired token — run svc login again');

    const other = await t.h.control.createAccount();
    const goneToken = await loginToken(t.h, other.account_id);
    await t.h.store.db.deleteFrom('accounts').where('id', '=', other.account_id).execute();
    const gone = await init(goneToken, valid);
    expect(gone.status).toBe(401);
    expect(message(gone)).toBe('User not found — run svc login again');
  });

  it('answers 403 without an advertiser, for another account advertiser_id, and for a suspended account', async () => {
    const { account_id, advertiser_id } = await t.h.control.createAccount();
    const other = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);

    const mismatch = await init(token, { ...valid, advertiser_id: other.advertiser_id });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.error).toEqual({
      status: 403,
      name: 'ForbiddenError',
      message: 'advertiser_id does not match the authenticated account',
      details: {},
    });
    expect(message(await init(token, { ...valid, advertiser_id: String(advertiser_id) }))).toBe(
      'advertiser_id does not match the authenticated account',
    );

    await t.h.store.db.deleteFrom('advertisers').where('id', '=', advertiser_id).execute();
    const none = await init(token, valid);
    expect(none.status).toBe(403);
    expect(message(none)).toBe('No advertiser found for this account — run svc login again');

    const blocked = await t.h.control.createAccount();
    const blockedToken = await loginToken(t.h, blocked.account_id);
    await t.h.store.db.updateTable('accounts').set({ blocked: 1 }).where('id', '=', blocked.account_id).execute();
    const suspended = await init(blockedToken, valid);
    expect(suspended.status).toBe(403);
    expect(suspended.body.error.details).toEqual({ code: 'ACCOUNT_BLOCKED' });
    // The documented 403 of /cli/init (spec/openapi.yaml, example `blocked`), word for word.
    expect(suspended.body).toEqual({
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: 'Your account has been suspended.', details: { code: 'ACCOUNT_BLOCKED' } },
    });
    const programs = await t.h.request('GET', '/api/v1/cli/programs', { key: blockedToken });
    expect(programs.status).toBe(403);
    expect(programs.body.error.details).toEqual({ code: 'ACCOUNT_BLOCKED' });
  });

  it('validates the body word for word and creates nothing on a 400', async () => {
    const { account_id } = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);
    const missing = 'Missing required fields: name, domain, commission_type, commission_rate';
    for (const field of Object.keys(valid)) {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      const res = await init(token, body);
      expect(res.status).toBe(400);
      expect(message(res)).toBe(missing);
    }
    expect(message(await init(token, { ...valid, name: '  ' }))).toBe(missing);
    expect(message(await init(token, undefined))).toBe(missing);
    expect(message(await init(token, { ...valid, commission_type: 'flat' }))).toBe(
      'Invalid commission_type: flat. Valid: percent, fixed, recurring_percent, recurring_fixed',
    );
    for (const rate of ['20', 0, -5]) {
      const res = await init(token, { ...valid, commission_rate: rate });
      expect(res.status).toBe(400);
      expect(message(res)).toBe('commission_rate must be a positive number');
    }
    const tooLarge = 'commission_rate must be at most 100 for percent types and at most 1000000000000 for fixed types';
    for (const [type, rate] of [
      ['percent', 100.5],
      ['recurring_percent', 1e308],
      ['fixed', 1e12 + 1],
      ['recurring_fixed', 1e308],
    ] as const) {
      const res = await init(token, { ...valid, commission_type: type, commission_rate: rate });
      expect(res.status).toBe(400);
      expect(message(res)).toBe(tooLarge);
    }
    expect(await t.h.store.db.selectFrom('programs').selectAll().execute()).toHaveLength(0);
  });

  it('answers a failure with the request id at the end of the message', async () => {
    const { account_id } = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);
    await t.h.control.armFault({ point: 'cli' });
    expectCliFailure(await init(token, valid), 'Failed to create program');
  });
});

describe('GET /api/v1/cli/programs', () => {
  it('lists the programs of every workspace the account is an active member of, with its role', async () => {
    const owner = await t.h.control.createAccount();
    const member = await t.h.control.createAccount();
    const ownerToken = await loginToken(t.h, owner.account_id);
    const created = (await init(ownerToken, valid)).body.data.program;
    const memberToken = await loginToken(t.h, member.account_id);
    expect((await t.h.request('GET', '/api/v1/cli/programs', { key: memberToken })).body.data.programs).toEqual([]);

    await t.h.control.addMembership({ account_id: member.account_id, program_id: created.id, role: 'member' });
    const listed = await t.h.request('GET', '/api/v1/cli/programs', { key: memberToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data.programs).toMatchObject([{ id: created.id, role: 'member' }]);
    expect(listed.body.data.programs[0].api_token).toMatch(/^svc_live_….{4}$/);
  });

  it('answers the three 401s with their own messages', async () => {
    const none = await t.h.request('GET', '/api/v1/cli/programs');
    expect(none.status).toBe(401);
    expect(message(none)).toBe('Missing Authorization header. Run svc login first.');
    expect(message(await t.h.request('GET', '/api/v1/cli/programs', { key: 'svc_login_nope' }))).toBe(
      'Invalid or expired token. Run svc login to refresh.',
    );
    const { account_id } = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);
    await t.h.store.db.deleteFrom('accounts').where('id', '=', account_id).execute();
    expect(message(await t.h.request('GET', '/api/v1/cli/programs', { key: token }))).toBe('User not found');
  });

  it('answers a failure with the request id at the end of the message', async () => {
    const { account_id } = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);
    await t.h.control.armFault({ point: 'cli' });
    expectCliFailure(await t.h.request('GET', '/api/v1/cli/programs', { key: token }), 'Failed to list programs');
  });

  it('counts against the /cli/* limit of 60 per minute per login token', async () => {
    const { account_id } = await t.h.control.createAccount();
    const token = await loginToken(t.h, account_id);
    await startOfMinute(t.h);
    for (let i = 0; i < 60; i++) expect((await t.h.request('GET', '/api/v1/cli/programs', { key: token })).status).toBe(200);
    const limited = await t.h.request('GET', '/api/v1/cli/programs', { key: token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: { status: 429, code: 'rate_limited', message: 'Too many requests.', retry_after_seconds: expect.any(Number) },
    });
    // Another key has its own bucket.
    expect((await t.h.request('GET', '/api/v1/cli/programs', { key: 'svc_login_other' })).status).toBe(401);
  });
});

describe('POST /api/v1/cli/stripe-connect', () => {
  it('is retired and names the dashboard as the replacement', async () => {
    const res = await t.h.request('POST', '/api/v1/cli/stripe-connect', { json: {} });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({
      data: null,
      error: {
        status: 410,
        name: 'GoneError',
        message:
          'This endpoint is retired. Connect your payment processor from the dashboard: open the program settings and use "Payment processor".',
        details: {},
      },
    });
    expect(res.headers['x-request-id']).toBeTruthy();
    // Whatever the body: it is not read.
    for (const raw of [
      ['{not json', 'application/json'],
      ['x', 'text/csv'],
    ] as const) {
      const any = await t.h.request('POST', '/api/v1/cli/stripe-connect', { raw: raw[0], contentType: raw[1] });
      expect(any.status).toBe(410);
    }
  });

  it('answers 410 even when the key has used up its /cli/* bucket (spec/rules.md "Endpoints/Summary": always 410)', async () => {
    await startOfMinute(t.h);
    const key = 'svc_login_busy';
    // An invented token: refused until the address has failed authentication too often (per-IP, below 60).
    for (let i = 0; i < buckets.authFailures.limit; i++)
      expect((await t.h.request('GET', '/api/v1/cli/programs', { key })).status).toBe(401);
    expect((await t.h.request('GET', '/api/v1/cli/programs', { key })).status).toBe(429);
    const retired = await t.h.request('POST', '/api/v1/cli/stripe-connect', { key, json: {} });
    expect(retired.status).toBe(410);
    expect(retired.body.error.name).toBe('GoneError');
    // Outside the rate limit: no bucket is counted or reported.
    expect(retired.headers['x-ratelimit-limit']).toBeUndefined();
    expect(retired.headers['retry-after']).toBeUndefined();
  });
});
