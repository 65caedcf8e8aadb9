import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { acceptInvitations, account, merchant } from '../partners/support';
import { funnel, shop } from '../webhooks-out/support';

// The hot path's lookups come from an in-process cache (reference-server/src/store/engine/lookup-cache.ts). Every change
// answered by this server must hold from its very next request: each write path below first lets a tracking request
// fill the cache, then changes the row, then expects the change at once (no waiting, no retry).
const t = harnessPerFile();

async function linked() {
  const m = await merchant(t.h);
  const partner = (await m.call('POST', '/partners', { name: 'Jane', email: `jane-${m.program.id}@example.com` })).body.data;
  const link = (await m.call('POST', '/links', { partner_id: partner.id, short_link: `jane-${m.program.id}` })).body.data;
  const click = () => t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: link.url } });
  expect((await click()).status).toBe(200);
  return { m, partner, link, click, key: m.program.api_token };
}

describe('cached lookups are never stale after a change this server answered', () => {
  it('a link turned off through the dashboard, the program-key API, the partner view and test control', async () => {
    const { m, link, click, key } = await linked();
    const dashboard = (enabled: boolean) => m.call('PATCH', `/links/${link.id}`, { enabled });
    const api = (enabled: boolean) => t.h.request('PATCH', `/api/v1/links/${link.short_link}`, { key, json: { enabled } });
    // The partner's own account (its email joins the partner's): the partner view.
    const cookie = await account(t.h, `jane-${m.program.id}@example.com`);
    await acceptInvitations(t.h, cookie);
    const partnerView = (enabled: boolean) =>
      t.h.request('PATCH', `/api/partner/links/${link.id}`, { headers: { cookie }, json: { enabled } });
    const control = async (enabled: boolean) => {
      await t.h.control.setLinkEnabled(link.short_link, enabled);
      return { status: 200 };
    };
    for (const [name, change] of Object.entries({ dashboard, api, partnerView, control })) {
      expect((await change(false)).status, name).toBe(200);
      expect((await click()).status, name).toBe(410);
      expect((await change(true)).status, name).toBe(200);
      expect((await click()).status, name).toBe(200);
    }
  });

  it('a partner suspended through the dashboard or the program-key API', async () => {
    const { m, partner, click, key } = await linked();
    expect((await m.call('PATCH', `/partners/${partner.id}`, { status: 'suspended' })).status).toBe(200);
    expect((await click()).status).toBe(410);
    expect((await m.call('PATCH', `/partners/${partner.id}`, { status: 'active' })).status).toBe(200);
    expect((await click()).status).toBe(200);
    expect((await t.h.request('PATCH', `/api/v1/partners/${partner.id}`, { key, json: { status: 'suspended' } })).status).toBe(200);
    expect((await click()).status).toBe(410);
  });

  it('a regenerated key stops working at once, and the new one works', async () => {
    const { m, key } = await linked();
    const sale = (k: string) =>
      t.h.request('POST', '/api/v1/track/sale', { key: k, json: { amount_cents: 100, currency: 'USD', customer_key: 'nobody' } });
    expect((await sale(key)).status).toBe(400);
    const fresh = (await m.call('POST', '/regenerate-key')).body.data.program.api_token as string;
    expect((await sale(key)).status).toBe(401);
    expect((await sale(fresh)).status).toBe(400);
  });

  it('program settings changed in the dashboard apply to the next click', async () => {
    const { m, click } = await linked();
    expect((await click()).body.cookie_window_days).toBe(60);
    expect((await m.call('PATCH', '', { allowed_origins: ['https://shop.example'] })).status).toBe(200);
    const refused = await t.h.request('POST', '/api/v1/track/click', {
      json: { affiliate_url: `https://shop.example/?aff=jane-${m.program.id}` },
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(refused.status).toBe(403);
    expect((await m.call('PATCH', '', { allowed_origins: null })).status).toBe(200);
    expect(
      (
        await t.h.request('POST', '/api/v1/track/click', {
          json: { affiliate_url: `https://shop.example/?aff=jane-${m.program.id}` },
          headers: { origin: 'https://elsewhere.example' },
        })
      ).status,
    ).toBe(200);
  });

  it('a webhook endpoint added or paused in the dashboard applies to the next tracking request', async () => {
    const s = await shop(t.h);
    const queued = async () =>
      (await t.h.store.db.selectFrom('webhook_events').select('type').where('program_id', '=', s.program.id).execute()).length;
    // No endpoint: the tracking requests cache that, and queue nothing.
    await funnel(t.h, s);
    expect(await queued()).toBe(0);
    const added = await s.call('POST', '/webhook-endpoints', { url: 'https://hooks.example/svc' });
    expect(added.status, added.text).toBe(201);
    await funnel(t.h, s);
    // lead.created, sale.created, commission.created, sale.refunded and the refund's commission.updated.
    expect(await queued()).toBe(5);
    expect((await s.call('PATCH', `/webhook-endpoints/${added.body.data.id}`, { enabled: false })).status).toBe(200);
    await funnel(t.h, s);
    expect(await queued()).toBe(5);
  });
});
