import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { acceptInvitations, account, merchant } from './support';

const t = harnessPerFile();
const byMerchant = 'This link was turned off by the merchant; ask them to turn it on';

/** Jane, an accepted partner of the merchant's program, with one link; `partnerSets` is her own switch. */
async function partnerWithLink() {
  const m = await merchant(t.h);
  const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
  const link = (await m.call('POST', '/links', { partner_id: jane.id, short_link: `jane-md-${m.program.id}` })).body.data;
  const cookie = await account(t.h, 'jane@example.com');
  await acceptInvitations(t.h, cookie);
  const partnerSets = (enabled: boolean) =>
    t.h.request('PATCH', `/api/partner/links/${link.id}`, { headers: { cookie }, json: { enabled } });
  const click = async () => (await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: link.url } })).status;
  const inView = async () => (await t.h.request('GET', '/api/partner', { headers: { cookie } })).body.data.partners[0].links[0];
  return { m, jane, link, partnerSets, click, inView };
}

describe('a link the merchant turned off stays off', () => {
  it('refuses the partner turning on a link the merchant turned off in the dashboard, and changes nothing', async () => {
    const s = await partnerWithLink();
    const off = await s.m.call('PATCH', `/links/${s.link.id}`, { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, disabled_by: 'merchant' });
    const refused = await s.partnerSets(true);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ status: 403, name: 'ForbiddenError', message: byMerchant, details: {} });
    expect(await s.click()).toBe(410);
    expect(await s.inView()).toMatchObject({ enabled: false, disabled_by: 'merchant' });
    // Turning it off again as the partner keeps the merchant's decision.
    expect((await s.partnerSets(false)).body.data).toMatchObject({ enabled: false, disabled_by: 'merchant' });
    expect((await s.partnerSets(true)).status).toBe(403);
    // The merchant turning it on clears it: the partner decides over it again.
    expect((await s.m.call('PATCH', `/links/${s.link.id}`, { enabled: true })).body.data).toMatchObject({
      enabled: true,
      disabled_by: null,
    });
    expect(await s.click()).toBe(200);
    expect((await s.partnerSets(false)).body.data).toMatchObject({ enabled: false, disabled_by: 'partner' });
  });

  it('holds the same for a link turned off with the program key (API and CLI)', async () => {
    const s = await partnerWithLink();
    const key = s.m.program.api_token;
    const off = await t.h.request('PATCH', `/api/v1/links/${s.link.short_link}`, { key, json: { enabled: false } });
    expect(off.body.data.disabled_by).toBe('merchant');
    expect((await s.partnerSets(true)).status).toBe(403);
    expect(await s.click()).toBe(410);
  });

  it('lets the partner turn back on only what they turned off, and shows the merchant who turned it off', async () => {
    const s = await partnerWithLink();
    expect((await s.partnerSets(false)).body.data).toMatchObject({ enabled: false, disabled_by: 'partner' });
    expect(await s.click()).toBe(410);
    expect((await s.m.call('GET', '/links')).body.data.links[0]).toMatchObject({ enabled: false, disabled_by: 'partner' });
    expect((await s.partnerSets(true)).body.data).toMatchObject({ enabled: true, disabled_by: null });
    expect(await s.click()).toBe(200);
    // The merchant may turn off a link the partner turned off; from then on it is the merchant's.
    await s.partnerSets(false);
    expect((await s.m.call('PATCH', `/links/${s.link.id}`, { enabled: false })).body.data.disabled_by).toBe('merchant');
    expect((await s.partnerSets(true)).status).toBe(403);
  });
});
