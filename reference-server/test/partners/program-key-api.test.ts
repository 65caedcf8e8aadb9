import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { merchant } from './support';

const t = harnessPerFile();

describe('partners and links with the program key (/api/v1)', () => {
  it("adds and lists partners, creates, lists and disables links, with the dashboard routes' answers", async () => {
    const m = await merchant(t.h);
    const key = m.program.api_token;
    const partner = await t.h.request('POST', '/api/v1/partners', { key, json: { name: 'Jane', email: 'jane@example.com' } });
    expect(partner.status).toBe(201);
    expect(partner.body.data).toMatchObject({ name: 'Jane', email: 'jane@example.com', status: 'active' });
    expect(partner.headers['x-ratelimit-limit']).toBe('60');

    const link = await t.h.request('POST', '/api/v1/links', { key, json: { partner_id: partner.body.data.id, short_link: 'jane-api' } });
    expect(link.status).toBe(201);
    expect(link.body.data).toMatchObject({ short_link: 'jane-api', url: 'https://shop.example/?aff=jane-api', enabled: true });
    const taken = await t.h.request('POST', '/api/v1/links', { key, json: { partner_id: partner.body.data.id, short_link: 'jane-api' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('This short_link is already taken');

    const listed = await t.h.request('GET', `/api/v1/links?partner_id=${partner.body.data.id}`, { key });
    expect(listed.body.data.links).toEqual([link.body.data]);
    const off = await t.h.request('PATCH', '/api/v1/links/jane-api', { key, json: { enabled: false } });
    expect(off.body.data).toEqual({ ...link.body.data, enabled: false, disabled_by: 'merchant' });
    expect((await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: link.body.data.url } })).status).toBe(410);

    const partners = await t.h.request('GET', '/api/v1/partners', { key });
    expect(partners.body.data.partners).toMatchObject([{ id: partner.body.data.id, figures: { clicks: 0 } }]);
    // Same store as the dashboard.
    expect((await m.call('GET', '/links')).body.data.links).toEqual([off.body.data]);
  });

  it("keeps to the key's program: another program's partner and link are not found", async () => {
    const a = await merchant(t.h);
    const b = await merchant(t.h, 'b.example');
    const partner = (await a.call('POST', '/partners', { name: 'Jane' })).body.data;
    await a.call('POST', '/links', { partner_id: partner.id, short_link: 'a-link' });
    const keyB = b.program.api_token;
    expect((await t.h.request('POST', '/api/v1/links', { key: keyB, json: { partner_id: partner.id } })).status).toBe(404);
    expect((await t.h.request('GET', `/api/v1/links?partner_id=${partner.id}`, { key: keyB })).status).toBe(404);
    const foreign = await t.h.request('PATCH', '/api/v1/links/a-link', { key: keyB, json: { enabled: false } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('Referral link not found');
    expect((await t.h.request('GET', '/api/v1/partners', { key: keyB })).body.data.partners).toEqual([]);
    expect((await t.h.request('GET', '/api/v1/links', { key: keyB })).body.data.links).toEqual([]);
  });

  it('renames, re-invites, suspends and reactivates a partner (PATCH /api/v1/partners/{partnerId}), as the dashboard does', async () => {
    const m = await merchant(t.h);
    const key = m.program.api_token;
    const partner = (await t.h.request('POST', '/api/v1/partners', { key, json: { name: 'Jane' } })).body.data;
    await t.h.request('POST', '/api/v1/links', { key, json: { partner_id: partner.id, short_link: 'jane-key' } });
    const click = () => t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: 'https://shop.example/?aff=jane-key' } });
    const patch = (id: number | string, json: unknown) => t.h.request('PATCH', `/api/v1/partners/${id}`, { key, json });

    const suspended = await patch(partner.id, { name: 'Jane D', email: 'Jane@Example.com', status: 'suspended' });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toEqual({
      ...partner,
      name: 'Jane D',
      email: 'jane@example.com',
      status: 'suspended',
      invitation: 'pending',
    });
    expect(suspended.headers['x-ratelimit-limit']).toBe('60');
    expect((await click()).status).toBe(410);
    // The dashboard sees the same record.
    expect((await m.call('GET', '/partners')).body.data.partners[0]).toMatchObject({ name: 'Jane D', status: 'suspended' });
    expect((await patch(partner.id, { status: 'active' })).body.data.status).toBe('active');
    expect((await click()).status).toBe(200);

    // The dashboard route's checks and messages, every field checked before anything changes.
    for (const [id, json, message] of [
      [partner.id, { name: 'New', status: 'paused' }, 'status must be active or suspended'],
      [partner.id, { email: 'not-an-email' }, 'email must be an email address, or null'],
      [partner.id, {}, 'Send at least one of name, email, status, commission_type and commission_rate'],
      ['abc', { name: 'X' }, 'partner_id must be a positive integer'],
    ] as const) {
      const refused = await patch(id, json);
      expect(refused.status, message).toBe(400);
      expect(refused.body.error.message).toBe(message);
      expect((await m.call('PATCH', `/partners/${id}`, json)).body.error).toEqual(refused.body.error);
    }
    expect((await m.call('GET', '/partners')).body.data.partners[0]).toMatchObject({
      name: 'Jane D',
      email: 'jane@example.com',
      status: 'active',
    });
  });

  it("answers another program's partner exactly as the dashboard does (404), and changes nothing", async () => {
    const a = await merchant(t.h);
    const b = await merchant(t.h, 'b.example');
    const partner = (await a.call('POST', '/partners', { name: 'Jane' })).body.data;
    const byKey = await t.h.request('PATCH', `/api/v1/partners/${partner.id}`, { key: b.program.api_token, json: { status: 'suspended' } });
    const byDashboard = await b.call('PATCH', `/partners/${partner.id}`, { status: 'suspended' });
    expect(byDashboard.status).toBe(404);
    expect(byKey.status).toBe(404);
    expect(byKey.body).toEqual(byDashboard.body);
    expect(byKey.body.error.message).toBe('Partner not found');
    expect((await t.h.request('PATCH', '/api/v1/partners/999999', { key: b.program.api_token, json: { name: 'X' } })).body).toEqual(
      byKey.body,
    );
    expect((await a.call('GET', '/partners')).body.data.partners[0].status).toBe('active');
    const noKey = await t.h.request('PATCH', `/api/v1/partners/${partner.id}`, { json: { status: 'suspended' } });
    expect(noKey.status).toBe(401);
    expect(noKey.body.error.message).toBe('Missing or malformed Authorization header. Expected: Bearer <token>');
  });

  it("counts only an active partner's enabled links in readiness active_links (and asks for a link when none is left)", async () => {
    const m = await merchant(t.h);
    const key = m.program.api_token;
    const readiness = async () => (await t.h.request('GET', '/api/v1/programs/me/readiness', { key })).body;
    const jane = (await t.h.request('POST', '/api/v1/partners', { key, json: { name: 'Jane' } })).body.data;
    const bob = (await t.h.request('POST', '/api/v1/partners', { key, json: { name: 'Bob' } })).body.data;
    await t.h.request('POST', '/api/v1/links', { key, json: { partner_id: jane.id } });
    await t.h.request('POST', '/api/v1/links', { key, json: { partner_id: jane.id } });
    await t.h.request('POST', '/api/v1/links', { key, json: { partner_id: bob.id } });
    expect((await readiness()).configuration.active_links).toBe(3);

    await t.h.request('PATCH', `/api/v1/partners/${jane.id}`, { key, json: { status: 'suspended' } });
    expect((await readiness()).configuration.active_links).toBe(1);
    await t.h.request('PATCH', `/api/v1/partners/${bob.id}`, { key, json: { status: 'suspended' } });
    const none = await readiness();
    expect(none.configuration.active_links).toBe(0);
    expect(none.next_step.code).toBe('create_link');
    await t.h.request('PATCH', `/api/v1/partners/${bob.id}`, { key, json: { status: 'active' } });
    expect((await readiness()).configuration.active_links).toBe(1);
  });

  it('refuses a missing or wrong key with the CLI program-key messages, before reading the body', async () => {
    const missing = await t.h.request('POST', '/api/v1/partners', { json: { name: 'Jane' } });
    expect(missing.status).toBe(401);
    expect(missing.body.error.message).toBe('Missing or malformed Authorization header. Expected: Bearer <token>');
    const wrong = await t.h.request('GET', '/api/v1/links', { key: 'svc_live_nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toMatch(/^Invalid API token\. If the key was regenerated/);
    const session = await merchant(t.h);
    expect((await t.h.request('GET', '/api/v1/partners', { headers: { cookie: session.cookie } })).status).toBe(401);
  });
});
