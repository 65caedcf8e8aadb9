import { expect } from 'vitest';
import type { Harness } from '../harness';
import type { Receiver } from './receiver';

let sequence = 0;

/** A program (percent 20) with a partner and a link, and its owner's dashboard cookie; `call` hits its dashboard routes. */
export async function shop(h: Harness) {
  const program = await h.control.createProgram({ name: 'Shop', domain: 'shop.example', commission_type: 'percent', commission_rate: 20 });
  const partner = await h.control.createPartner({ program_id: program.id });
  const link = await h.control.createLink({ program_id: program.id, partner_id: partner.id });
  const cookie = (await h.control.createDashboardSession(program.account_id)).cookie;
  const base = `/api/dashboard/programs/${program.id}`;
  const call = (method: string, path: string, json?: unknown, as = cookie) =>
    h.request(method, `${base}${path}`, { headers: { cookie: as }, ...(json === undefined ? {} : { json }) });
  return { program, key: program.api_token, partnerId: partner.id, shortLink: link.short_link, cookie, base, call };
}
export type Shop = Awaited<ReturnType<typeof shop>>;

/** Adds an endpoint at the receiver (201) and hands the receiver its secret; answers the created endpoint. */
export async function addEndpoint(s: Shop, receiver: Receiver, options: { path?: string; events?: string[] } = {}) {
  const res = await s.call('POST', '/webhook-endpoints', {
    url: `${receiver.url}${options.path ?? '/hook'}`,
    ...(options.events ? { events: options.events } : {}),
  });
  expect(res.status, res.text).toBe(201);
  receiver.secret = res.body.data.secret;
  return res.body.data as { id: number; url: string; events: string[]; enabled: boolean; secret: string; created_at: string };
}

/** The program's endpoints with their recent deliveries (GET, validated like every response). */
export async function endpoints(s: Shop, cookie = s.cookie): Promise<any[]> {
  const res = await s.call('GET', '/webhook-endpoints', undefined, cookie);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** Click → server-mode lead → sale → refund through the tracking routes; answers what each step recorded. */
export async function funnel(h: Harness, s: Shop, amountCents = 12_000) {
  const n = ++sequence;
  const click = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` } });
  expect(click.status, click.text).toBe(200);
  const customerKey = `cust_out_${n}_${Date.now()}`;
  const lead = await h.request('POST', '/api/v1/track/lead', {
    key: s.key,
    json: { click_id: click.body.click_id, customer_key: customerKey },
  });
  expect(lead.status, lead.text).toBe(200);
  const transactionId = `txn_out_${n}_${Date.now()}`;
  const sale = await h.request('POST', '/api/v1/track/sale', {
    key: s.key,
    json: { transaction_id: transactionId, amount_cents: amountCents, currency: 'EUR', customer_key: customerKey },
  });
  expect(sale.status, sale.text).toBe(200);
  const refund = await h.request('POST', '/api/v1/track/refund', {
    key: s.key,
    json: { transaction_id: transactionId, reason: 'chargeback' },
  });
  expect(refund.status, refund.text).toBe(200);
  return {
    clickId: click.body.click_id as string,
    customerKey,
    transactionId,
    saleId: sale.body.sale_id as number,
    commissionId: sale.body.commission_id as number,
  };
}
