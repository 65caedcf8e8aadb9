import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { htmlRequest } from '../cli/support';

const t = harnessPerFile();

/** A program, its owner's session, a partner and a webhook endpoint. */
async function setUp() {
  const program = await t.h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
  const { cookie } = await t.h.control.createDashboardSession(program.account_id);
  const partner = await t.h.control.createPartner({ program_id: program.id, name: 'Pat' });
  const endpoint = await t.h.request('POST', `/api/dashboard/programs/${program.id}/webhook-endpoints`, {
    headers: { cookie },
    json: { url: 'https://hooks.example/svc' },
  });
  return { program, cookie, partnerId: partner.id, endpointId: endpoint.body.data.id as number };
}

const page = (url: string, cookie?: string) => htmlRequest(t.h, 'GET', url, cookie ? { headers: { cookie } } : {});

describe('dashboard pages with addresses', () => {
  it('answers every page of a program with its own title, navigation and the program on the root element', async () => {
    const { program, cookie, partnerId, endpointId } = await setUp();
    const base = `/dashboard/programs/${program.id}`;
    const pages: [string, string, string][] = [
      ['', 'Acme', 'Overview'],
      ['/events', 'Events', 'Events'],
      ['/partners', 'Partners', 'Partners'],
      [`/partners/${partnerId}`, 'Partner', 'Partners'],
      ['/commissions', 'Commissions', 'Commissions'],
      ['/payouts', 'Payouts', 'Payouts'],
      ['/risk', 'Risk', 'Risk'],
      ['/webhooks', 'Webhooks', 'Webhooks'],
      [`/webhooks/${endpointId}`, 'Webhook endpoint', 'Webhooks'],
      ['/settings', 'Settings', 'Settings'],
    ];
    for (const [path, heading, nav] of pages) {
      const res = await page(base + path, cookie);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain(`<h1 id="page-title">${heading}</h1>`);
      expect(res.text, path).toContain(
        `data-open-program="${'{&quot;id&quot;:' + program.id},&quot;domain&quot;:&quot;acme.example&quot;,&quot;role&quot;:&quot;owner&quot;}"`,
      );
      // The page is current in the navigation; the program it is about, and the list a partner's or an endpoint's
      // page belongs to, are where it is.
      const current = [...res.text.matchAll(/<a href="[^"]+" aria-current="(page|true)">([^<]+)<\/a>/g)].map((m) => `${m[2]}: ${m[1]}`);
      const own = path === '' || heading === nav ? 'page' : 'true';
      expect(current, path).toEqual([`Acme: ${path === '' ? 'page' : 'true'}`, `${nav}: ${own}`]);
      expect(res.text, path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      expect(res.headers['set-cookie'], path).toBe(
        `svc_last_program=${program.id}; HttpOnly; SameSite=Lax; Path=/dashboard; Max-Age=31536000`,
      );
    }
    // The section a page mounts names what it is about, for its script.
    expect((await page(`${base}/partners/${partnerId}`, cookie)).text).toContain(`data-partner-id="${partnerId}"`);
    expect((await page(`${base}/webhooks/${endpointId}`, cookie)).text).toContain(`data-endpoint-id="${endpointId}"`);
  });

  it('keeps the report period in the address: the period control marks the one asked for', async () => {
    const { program, cookie } = await setUp();
    await t.h.control.clock({ now: '2026-05-20T08:00:00Z' });
    const { cookie: fresh } = await t.h.control.createDashboardSession(program.account_id);
    const base = `/dashboard/programs/${program.id}`;
    expect((await page(base, cookie)).text).toMatch(/<a class="chip" href="\?days=30" aria-current="true">30 days<\/a>/);
    expect((await page(`${base}?days=7`, fresh)).text).toMatch(/<a class="chip" href="\?days=7" aria-current="true">7 days<\/a>/);
    const month = await page(`${base}?from=2026-05-01&to=2026-05-20`, fresh);
    expect(month.text).toContain('<a class="chip" href="?from=2026-05-01&amp;to=2026-05-20" aria-current="true">This month</a>');
    const custom = await page(`${base}?from=2026-01-01&to=2026-02-01`, fresh);
    expect(custom.text).toContain('value="2026-01-01"');
    expect(custom.text).not.toContain('aria-current="true"');
  });

  it('answers 404 for what the account may not see, and the sign-in page without a session', async () => {
    const { program, cookie, partnerId } = await setUp();
    const other = await t.h.control.createProgram({ name: 'Other', domain: 'other.example' });
    const otherPartner = await t.h.control.createPartner({ program_id: other.id, name: 'Not yours' });
    for (const url of [
      `/dashboard/programs/${other.id}`,
      `/dashboard/programs/${other.id}/settings`,
      '/dashboard/programs/999999',
      '/dashboard/programs/abc',
      `/dashboard/programs/${program.id}/partners/${otherPartner.id}`,
      `/dashboard/programs/${program.id}/partners/x`,
      `/dashboard/programs/${program.id}/webhooks/999999`,
      `/dashboard/partner/${program.id}`,
    ]) {
      const res = await page(url, cookie);
      expect(res.status, url).toBe(404);
      expect(res.text, url).toContain('<h1>Not found</h1>');
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
    const signedOut = await page(`/dashboard/programs/${program.id}/partners/${partnerId}`);
    expect(signedOut.status).toBe(200);
    expect(signedOut.text).toContain('id="sign-in"');
  });

  it('/dashboard opens the program used last, else the first; the welcome page when there is none', async () => {
    const { program, cookie } = await setUp();
    const second = await t.h.control.createProgram({ name: 'Second', domain: 'second.example' });
    await t.h.control.addMembership({ account_id: program.account_id, program_id: second.id, role: 'member' });

    const first = await t.h.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } });
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(`/dashboard/programs/${program.id}`);
    const last = await t.h.app.inject({
      method: 'GET',
      url: '/dashboard',
      headers: { cookie: `${cookie}; svc_last_program=${second.id}` },
    });
    expect(last.headers.location).toBe(`/dashboard/programs/${second.id}`);
    // A program the account left (or never had) is only a stale hint.
    const stranger = await t.h.control.createProgram({ name: 'Stranger', domain: 'stranger.example' });
    const stale = await t.h.app.inject({
      method: 'GET',
      url: '/dashboard',
      headers: { cookie: `${cookie}; svc_last_program=${stranger.id}` },
    });
    expect(stale.headers.location).toBe(`/dashboard/programs/${program.id}`);

    const { account_id } = await t.h.control.createAccount({ email: 'new@example.test' });
    const newcomer = (await t.h.control.createDashboardSession(account_id)).cookie;
    const welcome = await page('/dashboard', newcomer);
    expect(welcome.status).toBe(200);
    expect(welcome.text).toContain('<h1 id="page-title">Welcome</h1>');
    expect((await page('/dashboard/new', newcomer)).text).toContain('id="new-program-form"');
    expect((await page('/dashboard/partner', newcomer)).text).toContain('id="partner-view"');
  });

  it('serves a favicon, and sends /favicon.ico to it', async () => {
    const icon = await htmlRequest(t.h, 'GET', '/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const ico = await htmlRequest(t.h, 'GET', '/favicon.ico');
    expect(ico.status).toBe(301);
    expect(ico.headers.location).toBe('/favicon.svg');
  });
});
