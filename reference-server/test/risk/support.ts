import { expect } from 'vitest';
import type { Harness } from '../harness';
import { merchant } from '../partners/support';

let sequence = 0;

/**
 * A merchant (percent 20) with partner Jane (`jane.doe@gmail.com`) and Bob (`bob@bob-bikes.com`) and a link each, and
 * shorthands: `click` (from an IP), `lead` (server mode, or browser mode from an IP), `sale` (answers the commission
 * id), `events` (the risk-events list), `commission` (the stored row).
 */
export async function riskShop(h: Harness, options: { leadAuth?: 'browser_allowed' } = {}) {
  const m = await merchant(h);
  const key = m.program.api_token;
  if (options.leadAuth)
    expect((await h.request('PATCH', m.base, { headers: { cookie: m.cookie }, json: { lead_auth: options.leadAuth } })).status).toBe(200);
  const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane.doe@gmail.com' })).body.data as { id: number };
  const bob = (await m.call('POST', '/partners', { name: 'Bob', email: 'bob@bob-bikes.com' })).body.data as { id: number };
  const links = { jane: `jane-risk-${m.program.id}`, bob: `bob-risk-${m.program.id}` };
  expect((await m.call('POST', '/links', { partner_id: jane.id, short_link: links.jane })).status).toBe(201);
  expect((await m.call('POST', '/links', { partner_id: bob.id, short_link: links.bob })).status).toBe(201);

  const click = async (who: 'jane' | 'bob' = 'jane', ip = '198.51.100.1') => {
    const res = await h.request('POST', '/api/v1/track/click', {
      json: { affiliate_url: `https://shop.example/?aff=${links[who]}` },
      remoteAddress: ip,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.click_id as string;
  };
  /** A lead of a new customer through `who`'s link; `browserIp`: a browser-mode lead from that IP. */
  const lead = async (email: string | undefined, who: 'jane' | 'bob' = 'jane', browserIp?: string) => {
    const clickId = await click(who, browserIp);
    const customerKey = `cust_risk_${++sequence}`;
    const json = { click_id: clickId, customer_key: customerKey, ...(email ? { email } : {}) };
    const res = browserIp
      ? await h.request('POST', '/api/v1/track/lead', { json, remoteAddress: browserIp, headers: { origin: 'https://shop.example' } })
      : await h.request('POST', '/api/v1/track/lead', { key, json });
    expect(res.status, res.text).toBe(200);
    return customerKey;
  };
  const sale = async (customerKey: string, cents = 10_000) => {
    const res = await h.request('POST', '/api/v1/track/sale', {
      key,
      json: { transaction_id: `txn_risk_${++sequence}`, amount_cents: cents, currency: 'USD', customer_key: customerKey },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.commission_id as number;
  };
  const events = async (query = '') => {
    const res = await m.call('GET', `/risk-events${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as { data: any[]; next_cursor: string | null };
  };
  const commission = (id: number) => h.store.db.selectFrom('commissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { m, key, jane, bob, links, click, lead, sale, events, commission };
}
