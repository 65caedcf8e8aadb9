import { describe, expect, it } from 'vitest';
import type { Harness } from '../harness';
import { withSignedInOwner, type OwnedProgram } from './signed-in-owner';

// The events feed people read (GET /api/tracking/events/{programId}): partner names, refunds on their sales, test
// events marked, filters by type and partner, and older pages by cursor.
let h: Harness;
let program: OwnedProgram;
let cookie: string;
withSignedInOwner({ commission_type: 'percent', commission_rate: 10 }, (s) => ({ h, program, cookie } = s));

const feed = async (query = '') => {
  const res = await h.request('GET', `/api/tracking/events/${program.id}${query}`, { headers: { cookie } });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { events: any[]; next_cursor: string | null };
};

/** A partner with a link; each `sale(n)` is a click, a lead and a sale of its own customer. */
async function partnerWithLink(name: string, shortLink: string) {
  const partner = await h.control.createPartner({ program_id: program.id, name });
  await h.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: shortLink });
  const sale = async (n: string) => {
    const click = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://acme.example/?aff=${shortLink}` } });
    const customer = `cust_${shortLink}_${n}`;
    await h.request('POST', '/api/v1/track/lead', {
      key: program.api_token,
      json: { click_id: click.body.click_id, customer_key: customer },
    });
    const res = await h.request('POST', '/api/v1/track/sale', {
      key: program.api_token,
      json: { transaction_id: `txn_${shortLink}_${n}`, amount_cents: 5_000, currency: 'USD', customer_key: customer },
    });
    expect(res.status, res.text).toBe(200);
    return `txn_${shortLink}_${n}`;
  };
  return { partner, sale };
}

describe('the events feed', () => {
  it('names the partner, shows a refund on its sale, and marks test events', async () => {
    const pat = await partnerWithLink('Pat Doe', 'pat');
    const txn = await pat.sale('1');
    await h.control.clock({ advance_seconds: 60 });
    const refund = await h.request('POST', '/api/v1/track/refund', {
      key: program.api_token,
      json: { transaction_id: txn, reason: 'chargeback' },
    });
    expect(refund.status, refund.text).toBe(200);
    await h.request('POST', '/api/tracking/test', { json: { program_id: program.id, event_type: 'click' }, headers: { cookie } });

    const { events, next_cursor } = await feed();
    expect(next_cursor).toBeNull();
    expect(events.map((e) => [e.type, e.is_test, e.partner_name])).toEqual([
      ['click', true, expect.any(String)],
      ['sale', false, 'Pat Doe'],
      ['lead', false, 'Pat Doe'],
      ['click', false, 'Pat Doe'],
    ]);
    const sale = events[1];
    expect(sale.refund_reason).toBe('chargeback');
    expect(Date.parse(sale.refunded_at) - Date.parse(sale.occurred_at)).toBeGreaterThanOrEqual(60_000);
    expect(events[2]).not.toHaveProperty('refunded_at');
  });

  it('filters by type (refund: the refunded sales) and by partner, and an unattributed event has no name', async () => {
    const pat = await partnerWithLink('Pat', 'pat');
    const sam = await partnerWithLink('Sam', 'sam');
    await pat.sale('1');
    const refunded = await sam.sale('1');
    await sam.sale('2');
    await h.request('POST', '/api/v1/track/refund', { key: program.api_token, json: { transaction_id: refunded } });
    await h.request('POST', '/api/v1/track/lead', { key: program.api_token, json: { customer_key: 'walk_in' } });

    const sales = (await feed('?type=sale')).events;
    expect(sales.map((e) => [e.partner_name, e.refunded_at === null])).toEqual([
      ['Sam', true],
      ['Sam', false],
      ['Pat', true],
    ]);
    const refunds = (await feed('?type=refund')).events;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ type: 'sale', partner_name: 'Sam', refund_reason: null });
    expect((await feed(`?partner_id=${pat.partner.id}`)).events.map((e) => e.type)).toEqual(['sale', 'lead', 'click']);
    expect((await feed(`?type=click&partner_id=${sam.partner.id}`)).events).toHaveLength(2);
    expect((await feed('?partner_id=999999')).events).toEqual([]);
    const [walkIn] = (await feed('?type=lead')).events;
    expect(walkIn).toMatchObject({ customer_key: 'walk_in', partner_id: null, partner_name: null });
  });

  it('pages older events by cursor, with the filters kept', async () => {
    const pat = await partnerWithLink('Pat', 'pat');
    for (const n of ['1', '2', '3']) await pat.sale(n);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { events: any[]; next_cursor: string | null } = await feed(`?type=click&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(3);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect((await feed('?limit=9')).next_cursor).toBeNull();
  });

  it('refuses a bad type, partner or cursor', async () => {
    for (const [query, message] of [
      ['type=refunds', 'type must be one of: click, lead, sale, refund'],
      ['partner_id=0', 'partner_id must be a positive integer'],
      ['partner_id=x', 'partner_id must be a positive integer'],
      ['cursor=abc', 'cursor must be a next_cursor this feed answered'],
    ]) {
      const res = await h.request('GET', `/api/tracking/events/${program.id}?${query}`, { headers: { cookie } });
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });
});
