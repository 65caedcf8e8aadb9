import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';

const t = harnessPerFile();

describe('dashboard guards', () => {
  it('only a workspace owner changes the payment processor connection', async () => {
    const program = await t.h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
    const owner = (await t.h.control.createDashboardSession(program.account_id)).cookie;
    const { account_id } = await t.h.control.createAccount();
    await t.h.control.addMembership({ account_id, program_id: program.id, role: 'member' });
    const member = (await t.h.control.createDashboardSession(account_id)).cookie;
    const put = (cookie: string) =>
      t.h.request('PUT', `/api/dashboard/programs/${program.id}/processor`, {
        // Typed ids bind nothing (Connect with Stripe proves control); the PUT disconnects, and only for owners.
        json: { processor_account: null },
        headers: { cookie },
      });

    await t.h.store.db.updateTable('programs').set({ processor_account: 'acct_owneronly' }).where('id', '=', program.id).execute();
    const refused = await put(member);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only a workspace owner can connect the payment processor');
    const row = await t.h.store.db
      .selectFrom('programs')
      .select('processor_account')
      .where('id', '=', program.id)
      .executeTakeFirstOrThrow();
    expect(row.processor_account).toBe('acct_owneronly');
    expect((await put(owner)).body.data).toEqual({ processor_account: null });
  });

  it('a state-changing dashboard request from another site is refused (403) and changes nothing; the dashboard itself passes', async () => {
    const program = await t.h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
    const cookie = (await t.h.control.createDashboardSession(program.account_id)).cookie;
    const regenerate = (headers: Record<string, string>) =>
      t.h.request('POST', `/api/dashboard/programs/${program.id}/regenerate-key`, { headers: { cookie, ...headers } });

    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const res = await regenerate(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.message).toBe('Cross-site request refused: this route accepts requests from the dashboard only');
    }
    const status = await t.h.request('GET', '/api/v1/cli/status', { key: program.api_token });
    expect(status.status).toBe(200);

    const own = await regenerate({ origin: t.h.app.svc.publicUrl, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    // Reads are not state-changing: a cross-site GET is answered (the browser's CORS keeps its body from the other site).
    expect((await t.h.request('GET', '/api/dashboard/programs', { headers: { cookie, origin: 'https://evil.example' } })).status).toBe(200);
  });
});

describe('cross-site guard: every cookie route, however the path is spelled', () => {
  it('decides from the matched route, so a percent-encoded path is refused like the plain one', async () => {
    const program = await t.h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
    const cookie = (await t.h.control.createDashboardSession(program.account_id)).cookie;
    const headers = { cookie, origin: 'https://evil.example' };
    // Straight to app.inject: the spec describes the plain paths only, so the validating client refuses these.
    const paths = [
      `/api/%64ashboard/programs/${program.id}/regenerate-key`,
      `/api/dashboard/programs/${program.id}/regenerate-%6Bey`,
      '/%61uth/sign-out',
    ];
    for (const url of paths) {
      const res = await t.h.app.inject({ method: 'POST', url, headers });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.message).toBe('Cross-site request refused: this route accepts requests from the dashboard only');
    }
    // The key still works: nothing was regenerated.
    expect((await t.h.request('GET', '/api/v1/cli/status', { key: program.api_token })).status).toBe(200);
  });

  it("guards the partner view's link switch too", async () => {
    const program = await t.h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
    const partner = await t.h.control.createPartner({ program_id: program.id });
    const link = await t.h.control.createLink({ program_id: program.id, partner_id: partner.id });
    const cookie = (await t.h.control.createDashboardSession(program.account_id)).cookie;
    const res = await t.h.request('PATCH', `/api/partner/links/${link.id}`, {
      json: { enabled: false },
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('Cross-site request refused: this route accepts requests from the dashboard only');
  });
});

describe('cross-site guard on a loopback PUBLIC_URL', () => {
  it('takes localhost and 127.0.0.1 on the same port as the same origin, and nothing else', async () => {
    const program = await t.h.control.createProgram({ name: 'Loop', domain: 'loop.example' });
    const cookie = (await t.h.control.createDashboardSession(program.account_id)).cookie;
    const port = new URL(t.h.app.svc.publicUrl).port;
    const post = (origin: string) =>
      t.h.request('PATCH', `/api/dashboard/programs/${program.id}`, { json: { attribution_window_days: 30 }, headers: { cookie, origin } });
    expect((await post(`http://localhost:${port}`)).status).toBe(200);
    expect((await post(`http://127.0.0.1:${port}`)).status).toBe(200);
    expect((await post('http://localhost:1')).status).toBe(403);
    expect((await post(`https://localhost:${port}`)).status).toBe(403);
    expect((await post(`http://localhost.evil.example:${port}`)).status).toBe(403);
  });
});
