import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { account, merchant } from './support';

const t = harnessPerFile();

/** A merchant who invited jane@example.com as partner Jane (with a link), and Jane's signed-in account. */
async function invited() {
  const m = await merchant(t.h);
  const jane = (await m.call('POST', '/partners', { name: 'Jane (our secret note)', email: 'jane@example.com' })).body.data;
  const link = (await m.call('POST', '/links', { partner_id: jane.id, short_link: `jane-inv-${m.program.id}` })).body.data;
  const cookie = await account(t.h, 'jane@example.com');
  const as = (method: string, path: string, json?: unknown, who = cookie) =>
    t.h.request(method, path, { headers: { cookie: who }, ...(json === undefined ? {} : { json }) });
  const merchantEmail = (await t.h.request('GET', '/api/dashboard/session', { headers: { cookie: m.cookie } })).body.data.email;
  const stateSeenByMerchant = async () => (await m.call('GET', '/partners')).body.data.partners[0].invitation;
  return { m, jane, link, cookie, as, merchantEmail, stateSeenByMerchant };
}

describe('partner invitations must be accepted', () => {
  it('shows a pending invitation (program name, inviter) and nothing of the program until accepted', async () => {
    const s = await invited();
    const view = await s.as('GET', '/api/partner');
    expect(view.status).toBe(200);
    expect(view.body.data).toEqual({
      partners: [],
      invitations: [{ partner_id: s.jane.id, program_name: 'Shop', invited_by: s.merchantEmail }],
    });
    // No link, figure or free text of the program: not the partner's name the merchant typed, not the link.
    expect(view.text).not.toContain('secret note');
    expect(view.text).not.toContain(s.link.short_link);
    // Nor can the link be switched from the partner routes.
    expect((await s.as('PATCH', `/api/partner/links/${s.link.id}`, { enabled: false })).status).toBe(404);
    expect(await s.stateSeenByMerchant()).toBe('pending');

    // Tracking does not wait for acceptance: the merchant made the partner and its link.
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: s.link.url } });
    expect(click.status).toBe(200);

    const accepted = await s.as('POST', `/api/partner/invitations/${s.jane.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({ partner_id: s.jane.id, invitation: 'accepted' });
    expect((await s.as('POST', `/api/partner/invitations/${s.jane.id}/accept`)).body.data.invitation).toBe('accepted');
    const after = (await s.as('GET', '/api/partner')).body.data;
    expect(after.invitations).toEqual([]);
    expect(after.partners).toHaveLength(1);
    expect(after.partners[0].partner).toMatchObject({ id: s.jane.id, invitation: 'accepted', figures: { clicks: 1 } });
    expect(after.partners[0].links.map((l: { id: number }) => l.id)).toEqual([s.link.id]);
    expect(await s.stateSeenByMerchant()).toBe('accepted');
  });

  it('removes a declined invitation from the view, for good, and shows the merchant it was declined', async () => {
    const s = await invited();
    const declined = await s.as('POST', `/api/partner/invitations/${s.jane.id}/decline`);
    expect(declined.status).toBe(200);
    expect(declined.body.data).toEqual({ partner_id: s.jane.id, invitation: 'declined' });
    expect((await s.as('POST', `/api/partner/invitations/${s.jane.id}/decline`)).status).toBe(200);
    expect((await s.as('GET', '/api/partner')).body.data).toEqual({ partners: [], invitations: [] });
    const late = await s.as('POST', `/api/partner/invitations/${s.jane.id}/accept`);
    expect(late.status).toBe(404);
    expect(late.body.error.message).toBe('Partner not found');
    expect(await s.stateSeenByMerchant()).toBe('declined');
    // The program key's list shows the same state.
    const listed = await t.h.request('GET', '/api/v1/partners', { key: s.m.program.api_token });
    expect(listed.body.data.partners[0].invitation).toBe('declined');
  });

  it("lets only the invited email's account answer; another account's answer is not found and changes nothing", async () => {
    const s = await invited();
    const other = await account(t.h, 'other@example.com');
    for (const answer of ['accept', 'decline']) {
      const res = await s.as('POST', `/api/partner/invitations/${s.jane.id}/${answer}`, undefined, other);
      expect(res.status, answer).toBe(404);
      expect(res.body.error.message).toBe('Partner not found');
    }
    expect((await s.as('POST', '/api/partner/invitations/abc/accept')).body.error.message).toBe('partner_id must be a positive integer');
    expect((await t.h.request('POST', `/api/partner/invitations/${s.jane.id}/accept`)).status).toBe(401);
    expect(await s.stateSeenByMerchant()).toBe('pending');
  });

  it('makes a new email a new pending invitation, and a partner without email has none', async () => {
    const s = await invited();
    await s.as('POST', `/api/partner/invitations/${s.jane.id}/accept`);
    const moved = await s.m.call('PATCH', `/partners/${s.jane.id}`, { email: 'jane.new@example.com' });
    expect(moved.body.data.invitation).toBe('pending');
    // The old address's account no longer sees the program.
    expect((await s.as('GET', '/api/partner')).body.data).toEqual({ partners: [], invitations: [] });
    const renamed = await s.m.call('PATCH', `/partners/${s.jane.id}`, { name: 'Jane N' });
    expect(renamed.body.data.invitation).toBe('pending');
    expect((await s.m.call('PATCH', `/partners/${s.jane.id}`, { email: null })).body.data.invitation).toBeNull();
    expect((await s.m.call('POST', '/partners', { name: 'No email' })).body.data.invitation).toBeNull();
  });
});
