import { describe, expect, it } from 'vitest';
import type { Harness } from '../harness';
import { withSignedInOwner, type OwnedProgram } from './signed-in-owner';

let h: Harness;
let program: OwnedProgram;
let owner: string;
withSignedInOwner({}, (s) => ({ h, program, cookie: owner } = s));

const call = (method: string, path: string, cookie: string, json?: unknown) =>
  h.request(method, path, { headers: { cookie }, ...(json === undefined ? {} : { json }) });

async function member(): Promise<string> {
  const { account_id } = await h.control.createAccount();
  await h.control.addMembership({ account_id, program_id: program.id, role: 'member' });
  return (await h.control.createDashboardSession(account_id)).cookie;
}

describe('/api/dashboard/session and programs', () => {
  it('names the signed-in account and lists its programs with its role, keys masked', async () => {
    const session = await call('GET', '/api/dashboard/session', owner);
    expect(session.body.data).toEqual({ account_id: program.account_id, email: expect.stringContaining('@'), can_create_programs: true });
    const list = await call('GET', '/api/dashboard/programs', owner);
    expect(list.body.data.programs).toMatchObject([
      { id: program.id, role: 'owner', api_token: `svc_live_…${program.api_token.slice(-4)}` },
    ]);
    expect((await h.request('GET', '/api/dashboard/programs')).status).toBe(401);
    expect((await h.request('GET', '/api/dashboard/session', { key: program.api_token })).status).toBe(401);
  });

  it('creates a program with the init rules and shows its key once', async () => {
    const created = await call('POST', '/api/dashboard/programs', owner, {
      name: 'Shop',
      domain: 'shop.example',
      commission_type: 'fixed',
      commission_rate: 500,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.program.api_token).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    const bad = await call('POST', '/api/dashboard/programs', owner, {
      name: 'Shop',
      domain: 'shop.example',
      commission_type: 'fixed',
      commission_rate: '5',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('commission_rate must be a positive number');
    expect((await call('GET', '/api/dashboard/programs', owner)).body.data.programs).toHaveLength(2);
  });
});

describe('/api/dashboard/programs/:programId access', () => {
  // spec/rules.md "Errors/Status codes" keeps 404 for a sale to refund or a CLI login session: an unknown program answers like
  // one the account is not a member of, so program ids cannot be enumerated.
  it('answers an unknown program exactly as a program of another workspace (403)', async () => {
    const other = await h.control.createProgram({ name: 'Other', domain: 'other.example' });
    const requests = [
      ['PATCH', '', { lead_auth: 'browser_allowed' }],
      ['POST', '/regenerate-key', {}],
      ['PUT', '/processor', { processor_account: 'acct_123' }],
    ] as const;
    for (const [method, suffix, json] of requests) {
      const notMember = await call(method, `/api/dashboard/programs/${other.id}${suffix}`, owner, json);
      const unknown = await call(method, `/api/dashboard/programs/999999${suffix}`, owner, json);
      expect(notMember.status, `${method} ${suffix}`).toBe(403);
      expect(unknown.status, `${method} ${suffix}`).toBe(403);
      expect(unknown.body).toEqual(notMember.body);
      expect(unknown.body.error.message).toBe("You are not a member of this program's workspace");
    }
  });
});

describe('PATCH /api/dashboard/programs/:programId', () => {
  it('changes attribution window, lead auth and allowed origins', async () => {
    const res = await call('PATCH', `/api/dashboard/programs/${program.id}`, await member(), {
      attribution_window_days: 30,
      lead_auth: 'browser_allowed',
      allowed_origins: ['https://shop.example', 'http://localhost:3000'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.program).toMatchObject({
      attribution_window_days: 30,
      lead_auth: 'browser_allowed',
      allowed_origins: ['https://shop.example', 'http://localhost:3000'],
    });
    // The window is the click's cookie lifetime from now on.
    const partner = await h.control.createPartner({ program_id: program.id, name: 'P' });
    await h.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: 'p' });
    const click = await h.request('POST', '/api/v1/track/click', {
      json: { affiliate_url: 'https://acme.example/?aff=p' },
      headers: { origin: 'https://shop.example' },
    });
    expect(click.body.cookie_window_days).toBe(30);
    const cleared = await call('PATCH', `/api/dashboard/programs/${program.id}`, owner, { allowed_origins: null });
    expect(cleared.body.data.program.allowed_origins).toBeNull();
  });

  it('checks every setting before changing anything', async () => {
    for (const [body, message] of [
      [{ attribution_window_days: 0 }, 'attribution_window_days must be an integer from 1 to 365'],
      [{ attribution_window_days: 30.5 }, 'attribution_window_days must be an integer from 1 to 365'],
      [{ lead_auth: 'none' }, 'lead_auth must be server_required or browser_allowed'],
      [
        { allowed_origins: ['shop.example'] },
        'allowed_origins must be null or a list of at most 100 origins such as https://shop.example, each at most 261 characters',
      ],
      [
        { allowed_origins: ['https://shop.example/path'] },
        'allowed_origins must be null or a list of at most 100 origins such as https://shop.example, each at most 261 characters',
      ],
      [{ attribution_window_days: 10, lead_auth: 'bad' }, 'lead_auth must be server_required or browser_allowed'],
      [
        {},
        'Send at least one of attribution_window_days, lead_auth, allowed_origins, commission_hold_days, min_payout_cents, risk_hold_kinds, click_flood_threshold, fast_conversion_seconds',
      ],
    ] as const) {
      const res = await call('PATCH', `/api/dashboard/programs/${program.id}`, owner, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const stored = await h.store.db.selectFrom('programs').selectAll().where('id', '=', program.id).executeTakeFirstOrThrow();
    expect(stored.attribution_window_days).toBe(60);
  });
});

describe('POST /api/dashboard/programs/:programId/regenerate-key', () => {
  it('lets an owner regenerate: the new key is shown once, the old one stops working', async () => {
    const res = await call('POST', `/api/dashboard/programs/${program.id}/regenerate-key`, owner);
    expect(res.status).toBe(200);
    const fresh = res.body.data.program.api_token as string;
    expect(fresh).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(program.api_token);
    const old = await h.request('GET', '/api/v1/cli/status', { key: program.api_token });
    expect(old.status).toBe(401);
    expect((await h.request('GET', '/api/v1/cli/status', { key: fresh })).status).toBe(200);
    const status = await call('GET', `/api/tracking/status/${program.id}`, owner);
    expect(status.body.data.program.api_token).toBe(`svc_live_…${fresh.slice(-4)}`);
  });

  it('clears a pending rotation notice', async () => {
    await h.control.markKeyRotation(program.id, { rotate_by: new Date(Date.now() + 3_600_000).toISOString() });
    const fresh = (await call('POST', `/api/dashboard/programs/${program.id}/regenerate-key`, owner)).body.data.program.api_token;
    const res = await h.request('GET', '/api/v1/cli/status', { key: fresh });
    expect(res.body.warnings).toBeUndefined();
  });

  it('refuses a member with 403 and keeps the key', async () => {
    const res = await call('POST', `/api/dashboard/programs/${program.id}/regenerate-key`, await member());
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({
      status: 403,
      name: 'ForbiddenError',
      message: 'Only a workspace owner can regenerate the API key',
      details: {},
    });
    expect((await h.request('GET', '/api/v1/cli/status', { key: program.api_token })).status).toBe(200);
  });
});

describe('PUT /api/dashboard/programs/:programId/processor', () => {
  it('binds no typed account id (Connect with Stripe does), refuses anything but null, and disconnects', async () => {
    const typed = await call('PUT', `/api/dashboard/programs/${program.id}/processor`, owner, { processor_account: 'acct_123' });
    expect(typed.status).toBe(400);
    expect(typed.body.error.message).toBe(
      'A Stripe account is connected only with "Connect with Stripe" in the dashboard, which proves you control it; processor_account accepts only null (disconnect)',
    );
    expect((await call('GET', `/api/tracking/status/${program.id}`, owner)).body.data.integration).toMatchObject({
      processor_connected: false,
      processor_account: null,
    });

    for (const processor_account of ['123', 'acct_', 42, undefined]) {
      const bad = await call(
        'PUT',
        `/api/dashboard/programs/${program.id}/processor`,
        owner,
        processor_account === undefined ? {} : { processor_account },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('processor_account must be null (disconnect)');
    }

    await h.control.connectProcessor({ program_id: program.id, account: 'acct_123' });
    const off = await call('PUT', `/api/dashboard/programs/${program.id}/processor`, owner, { processor_account: null });
    expect(off.body.data).toEqual({ processor_account: null });
    expect((await call('GET', `/api/tracking/status/${program.id}`, owner)).body.data.integration).toMatchObject({
      processor_connected: false,
    });
  });
});
