import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { merchant } from './support';

const t = harnessPerFile();

describe('partners and links with the program key (/api/v1)', () => {
  it('adds and lists partners, creates, lists and disables links, with the dashboard routes\' answers', async () => {
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
    expect(off.body.data).toEqual({ ...link.body.data, enabled: false });
    expect((await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: link.body.data.url } })).status).toBe(410);

    const partners = await t.h.request('GET', '/api/v1/partners', { key });
    expect(partners.body.data.partners).toMatchObject([{ id: partner.body.data.id, figures: { clicks: 0 } }]);
    // Same store as the dashboard.
    expect((await m.call('GET', '/links')).body.data.links).toEqual([off.body.data]);
  });

  it('keeps to the key\'s program: another program\'s partner and link are not found', async () => {
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
