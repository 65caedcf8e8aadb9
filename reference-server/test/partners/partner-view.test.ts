import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { acceptInvitations, account, merchant, visitorBuys } from './support';

const t = harnessPerFile();

/** Program A with partner Jane (and Bob), program B with partner Zed; each partner has one link and A's Jane a sale. */
async function twoPrograms() {
  const a = await merchant(t.h, 'a.example');
  const b = await merchant(t.h, 'b.example');
  const jane = (await a.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
  const bob = (await a.call('POST', '/partners', { name: 'Bob', email: 'bob@example.com' })).body.data;
  const zed = (await b.call('POST', '/partners', { name: 'Zed', email: 'zed@example.com' })).body.data;
  const janeLink = (await a.call('POST', '/links', { partner_id: jane.id, short_link: 'jane-a' })).body.data;
  const bobLink = (await a.call('POST', '/links', { partner_id: bob.id, short_link: 'bob-a' })).body.data;
  const zedLink = (await b.call('POST', '/links', { partner_id: zed.id, short_link: 'zed-b' })).body.data;
  await visitorBuys(t.h, a.program.api_token, 'jane-a', 10_000);
  return { a, b, jane, bob, zed, janeLink, bobLink, zedLink };
}

/**
 * A signed-in account whose stored email differs in case from the partner's (`jane@example.com`): every sign-in path
 * lower-cases, so the row is respelled afterwards, as an account kept from before that (or a provider's spelling)
 * would be. The view must still match it.
 */
async function accountSpelled(email: string): Promise<string> {
  const cookie = await account(t.h, email);
  await t.h.store.db.updateTable('accounts').set({ email }).where('email', '=', email.toLowerCase()).execute();
  const stored = await t.h.store.db.selectFrom('accounts').select('email').where('email', '=', email).executeTakeFirstOrThrow();
  expect(stored.email).toBe(email);
  return cookie;
}

describe('the partner view (GET /api/partner)', () => {
  it('shows the signed-in partner their links with full URLs and their figures, and nothing else', async () => {
    const { a, jane, janeLink } = await twoPrograms();
    const cookie = await accountSpelled('Jane@Example.COM');
    await acceptInvitations(t.h, cookie);
    const view = await t.h.request('GET', '/api/partner', { headers: { cookie } });
    expect(view.status).toBe(200);
    expect(view.body.data.partners).toEqual([
      {
        program: { id: a.program.id, name: 'Shop', domain: 'a.example' },
        partner: {
          ...jane,
          invitation: 'accepted',
          terms: { commission_type: 'percent', commission_rate: 20, source: 'program' },
          figures: {
            clicks: 1,
            leads: 1,
            sales: 1,
            revenue_cents: { USD: 10_000 },
            commissions: {
              due_cents: { USD: 2_000 },
              held_cents: {},
              pending_cents: {},
              paid_cents: {},
              reversed_cents: {},
              balance_cents: { USD: 2_000 },
            },
          },
        },
        links: [{ ...janeLink, url: 'https://a.example/?aff=jane-a' }],
        commissions: [
          {
            id: expect.any(Number),
            kind: 'sale',
            status: 'due',
            due_at: expect.any(String),
            amount_cents: 2_000,
            currency: 'USD',
            created_at: expect.any(String),
          },
        ],
        payouts: [],
      },
    ]);
    // No key, settings or other partner anywhere in the answer.
    expect(view.text).not.toContain('api_token');
    expect(view.text).not.toContain('Bob');
    // The terms in force are the partner's to see; the program's other settings are not.
    expect(view.text).not.toContain('attribution_window');
    expect(view.text).not.toContain('lead_auth');
  });

  it('lets the partner turn their own link off and on; clicks then answer 410', async () => {
    const { janeLink } = await twoPrograms();
    const cookie = await accountSpelled('JANE@example.com');
    await acceptInvitations(t.h, cookie);
    const off = await t.h.request('PATCH', `/api/partner/links/${janeLink.id}`, { headers: { cookie }, json: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ id: janeLink.id, enabled: false });
    expect((await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: janeLink.url } })).status).toBe(410);
    const on = await t.h.request('PATCH', `/api/partner/links/${janeLink.id}`, { headers: { cookie }, json: { enabled: true } });
    expect(on.body.data.enabled).toBe(true);
  });

  it('gives an account invited by no program an empty list, and refuses without a session', async () => {
    await twoPrograms();
    const cookie = await account(t.h, 'nobody@example.com');
    expect((await t.h.request('GET', '/api/partner', { headers: { cookie } })).body.data.partners).toEqual([]);
    expect((await t.h.request('GET', '/api/partner')).status).toBe(401);
  });
});

describe('isolation matrix: merchant of A, member vs owner of A, partner of A, partner of B', () => {
  it('each sees and changes only what is theirs', async () => {
    const { a, bobLink, janeLink, zedLink } = await twoPrograms();
    const memberOfA = await account(t.h, 'member@example.com', { programId: a.program.id, role: 'member' });
    const partnerOfA = await account(t.h, 'jane@example.com');
    const partnerOfB = await account(t.h, 'zed@example.com');
    await acceptInvitations(t.h, partnerOfA);
    await acceptInvitations(t.h, partnerOfB);
    const as = (cookie: string, method: string, path: string, json?: unknown) =>
      t.h.request(method, path, { headers: { cookie }, ...(json === undefined ? {} : { json }) });

    // The merchant's routes of A: owner and member yes (payouts owner only); partners of A or B are not members.
    for (const [who, cookie, expected] of [
      ['owner of A', a.cookie, 200],
      ['member of A', memberOfA, 200],
      ['partner of A', partnerOfA, 403],
      ['partner of B', partnerOfB, 403],
    ] as const) {
      expect((await as(cookie, 'GET', `${a.base}/partners`)).status, who).toBe(expected);
      expect((await as(cookie, 'GET', `${a.base}/links`)).status, who).toBe(expected);
      expect((await as(cookie, 'PATCH', `${a.base}/links/${bobLink.id}`, { enabled: true })).status, who).toBe(expected);
      expect((await as(cookie, 'GET', `/api/tracking/status/${a.program.id}`)).status, who).toBe(expected);
      expect((await as(cookie, 'PATCH', `/api/dashboard/programs/${a.program.id}`, { lead_auth: 'browser_allowed' })).status, who).toBe(
        expected,
      );
    }
    const payout = { partner_id: janeLink.partner_id, through: '2000-01-01' };
    // The owner passes (nothing is due through 2000-01-01: 409, nothing recorded); the others are refused first.
    expect((await as(a.cookie, 'POST', `${a.base}/payouts`, payout)).status).toBe(409);
    expect((await as(memberOfA, 'POST', `${a.base}/payouts`, payout)).status).toBe(403);
    expect((await as(partnerOfA, 'POST', `${a.base}/payouts`, payout)).status).toBe(403);

    // The partner view: each partner sees their own program's record only; a merchant who is not a partner sees none.
    const viewOf = async (cookie: string) =>
      (await as(cookie, 'GET', '/api/partner')).body.data.partners.map((p: { partner: { name: string } }) => p.partner.name);
    expect(await viewOf(partnerOfA)).toEqual(['Jane']);
    expect(await viewOf(partnerOfB)).toEqual(['Zed']);
    expect(await viewOf(a.cookie)).toEqual([]);
    expect(await viewOf(memberOfA)).toEqual([]);

    // A partner turns off only their own link: another partner's (same program or another) is not found.
    for (const [cookie, link] of [
      [partnerOfA, bobLink],
      [partnerOfA, zedLink],
      [partnerOfB, janeLink],
      [a.cookie, janeLink],
    ] as const) {
      const res = await as(cookie, 'PATCH', `/api/partner/links/${link.id}`, { enabled: false });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Referral link not found');
    }
    for (const link of [janeLink, bobLink, zedLink]) {
      expect((await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: link.url } })).status, link.short_link).toBe(200);
    }
  });
});
