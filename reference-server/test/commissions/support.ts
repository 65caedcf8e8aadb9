import { expect } from 'vitest';
import type { Harness } from '../harness';
import { merchant, visitorBuys } from '../partners/support';

const dayMs = 86_400_000;

/**
 * A merchant (percent 20) with partners Jane and Bob and a link each, and shorthands for the commission routes:
 * `call` (as the owner or a member who is not an owner), `sell` (click, lead, sale through Jane's or Bob's link;
 * answers the commission id), `refund`, `settings`, `list`, `approve`, `decline`, `adjust`, `payout`, `figures`, `days`.
 */
export async function lifecycleShop(h: Harness) {
  const m = await merchant(h);
  const key = m.program.api_token;
  const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data as { id: number };
  const bob = (await m.call('POST', '/partners', { name: 'Bob' })).body.data as { id: number };
  const links = { jane: `jane-lc-${m.program.id}`, bob: `bob-lc-${m.program.id}` };
  expect((await m.call('POST', '/links', { partner_id: jane.id, short_link: links.jane })).status).toBe(201);
  expect((await m.call('POST', '/links', { partner_id: bob.id, short_link: links.bob })).status).toBe(201);
  const { account_id: memberId } = await h.control.createAccount({ email: `member-${m.program.id}@example.com` });
  await h.control.addMembership({ account_id: memberId, program_id: m.program.id, role: 'member' });
  // Sessions expire on the server clock, which the tests move by days: `days` signs both in again.
  const session = { owner: m.cookie, member: (await h.control.createDashboardSession(memberId)).cookie };
  const call = (method: string, path: string, json?: unknown, as: 'owner' | 'member' = 'owner') =>
    h.request(method, `${m.base}${path}`, { headers: { cookie: session[as] }, ...(json === undefined ? {} : { json }) });

  const sell = async (cents: number, who: 'jane' | 'bob' = 'jane', currency = 'USD') => {
    const transactionId = await visitorBuys(h, key, links[who], cents, currency);
    const row = await h.store.db
      .selectFrom('commissions')
      .innerJoin('sales', 'sales.id', 'commissions.sale_id')
      .select('commissions.id')
      .where('sales.processor_event_id', '=', transactionId)
      .executeTakeFirstOrThrow();
    return { transactionId, id: row.id };
  };
  const refund = (transactionId: string) => h.request('POST', '/api/v1/track/refund', { key, json: { transaction_id: transactionId } });
  type As = 'owner' | 'member';
  const settings = (json: unknown, as: As = 'owner') => h.request('PATCH', m.base, { headers: { cookie: session[as] }, json });
  const list = (query = '', as: As = 'owner') => call('GET', `/commissions${query}`, undefined, as);
  const approve = (id: number, as: As = 'owner') => call('POST', `/commissions/${id}/approve`, undefined, as);
  const decline = (id: number, reason = 'self-referral', as: As = 'owner') => call('POST', `/commissions/${id}/decline`, { reason }, as);
  const adjust = (json: unknown, partnerId = jane.id, as: As = 'owner') => call('POST', `/partners/${partnerId}/adjustments`, json, as);
  const payout = (partnerId = jane.id) => call('POST', '/payouts', { partner_id: partnerId, through: '2999-12-31' });
  const figures = async (partnerId = jane.id) => {
    const res = await call('GET', '/partners');
    expect(res.status).toBe(200);
    return res.body.data.partners.find((p: { id: number }) => p.id === partnerId).figures.commissions;
  };
  const days = async (n: number) => {
    await h.control.clock({ advance_seconds: (n * dayMs) / 1000 });
    session.owner = (await h.control.createDashboardSession(m.program.account_id)).cookie;
    session.member = (await h.control.createDashboardSession(memberId)).cookie;
  };
  return { m, key, jane, bob, links, call, sell, refund, settings, list, approve, decline, adjust, payout, figures, days };
}
export type LifecycleShop = Awaited<ReturnType<typeof lifecycleShop>>;
