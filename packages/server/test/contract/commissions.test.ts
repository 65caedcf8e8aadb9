import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc, SvcUnauthorizedError } from '../../src';

// svc.commissions.list against the real reference server; every response is validated against the spec.
let server: ReferenceServer;
let svc: Svc;
let partnerId: number;
const sales: string[] = [];

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  const program = await server.control.createProgram({ domain: 'shop.example', commission_type: 'percent', commission_rate: 10 });
  svc = new Svc({ baseUrl: server.url, apiKey: program.api_token, fetch: contractFetch });
  partnerId = (await svc.partners.create({ name: 'Jane' })).data.id;
  const link = (await svc.links.create({ partner_id: partnerId, short_link: 'jane-commissions' })).data;
  for (let i = 1; i <= 5; i++) {
    const click = (await svc.track.click({ affiliate_url: link.url })).click_id;
    await svc.track.lead({ click_id: click, customer_key: `cust_sdk_${i}` });
    await svc.track.sale({ transaction_id: `txn_sdk_${i}`, amount_cents: 1_000 * i, currency: 'USD', customer_key: `cust_sdk_${i}` });
    sales.push(`txn_sdk_${i}`);
  }
});
afterAll(() => server.close());

describe('svc.commissions.list', () => {
  it('iterates over every page, newest first, following next_cursor', async () => {
    const pages: { ids: number[]; next: string | null }[] = [];
    const seen: string[] = [];
    for await (const page of svc.commissions.list({ limit: 2 })) {
      expect(page.requestId).toEqual(expect.any(String));
      pages.push({ ids: page.data.map((c) => c.id), next: page.next_cursor });
      seen.push(...page.data.map((c) => c.transaction_id ?? ''));
    }
    expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 1]);
    expect(pages.at(-1)!.next).toBeNull();
    expect(seen).toEqual([...sales].reverse());
  });

  it('passes the filters, and stops early when the caller breaks', async () => {
    await svc.track.refund({ transaction_id: 'txn_sdk_2' });
    const reversed = [];
    for await (const page of svc.commissions.list({ status: 'reversed', partner_id: partnerId })) reversed.push(...page.data);
    expect(reversed.map((c) => [c.transaction_id, c.status, c.amount_cents])).toEqual([['txn_sdk_2', 'reversed', 200]]);
    let steps = 0;
    for await (const page of svc.commissions.list({ limit: 1 })) {
      expect(page.data).toHaveLength(1);
      if (++steps === 2) break;
    }
    expect(steps).toBe(2);
  });

  it('rejects a wrong key on the first step', async () => {
    const wrong = new Svc({ baseUrl: server.url, apiKey: 'svc_live_wrong', fetch: contractFetch });
    await expect(wrong.commissions.list().next()).rejects.toBeInstanceOf(SvcUnauthorizedError);
  });
});
