import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { assertValidResponse } from '../../src/testing/validate';
import type { ServerProcess } from '../scale/server-process';
import type { Receiver } from './receiver';

/** One request to a spawned server, its answer validated against the spec. */
export async function send(
  server: ServerProcess,
  method: string,
  path: string,
  options: { json?: unknown; key?: string; cookie?: string } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await res.text();
  assertValidResponse({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : undefined };
}

/**
 * A program paying on every sale (recurring_percent, so each sale has a commission), one attributed customer, and
 * an endpoint at the receiver added through the dashboard route; the receiver gets the secret.
 */
export async function programWithEndpoint(server: ServerProcess, receiver: Receiver) {
  const program = await server.control.createProgram({ commission_type: 'recurring_percent', commission_rate: 10 });
  const partner = await server.control.createPartner({ program_id: program.id });
  const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
  const { cookie } = await server.control.createDashboardSession(program.account_id);
  const endpoint = await send(server, 'POST', `/api/dashboard/programs/${program.id}/webhook-endpoints`, {
    cookie,
    json: { url: `${receiver.url}/hook` },
  });
  expect(endpoint.status).toBe(201);
  receiver.secret = endpoint.body!.data.secret;
  const click = await send(server, 'POST', '/api/v1/track/click', {
    json: { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` },
  });
  const customerKey = `cust_${randomBytes(4).toString('hex')}`;
  const lead = await send(server, 'POST', '/api/v1/track/lead', {
    key: program.api_token,
    json: { click_id: click.body!.click_id, customer_key: customerKey },
  });
  expect(lead.status).toBe(200);
  return { programId: program.id, key: program.api_token, cookie, customerKey };
}

/** A sale of the customer; answers its sale and commission ids. */
export async function sale(server: ServerProcess, p: { key: string; customerKey: string }, amountCents = 1_000) {
  const res = await send(server, 'POST', '/api/v1/track/sale', {
    key: p.key,
    json: {
      transaction_id: `txn_${randomBytes(6).toString('hex')}`,
      amount_cents: amountCents,
      currency: 'USD',
      customer_key: p.customerKey,
    },
  });
  expect(res.status).toBe(200);
  return { saleId: res.body!.sale_id as number, commissionId: res.body!.commission_id as number };
}

/** Every event the receiver was answered 2xx for, by webhook-id. */
export function acknowledged(receiver: Receiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of receiver.received) {
    if (r.status < 200 || r.status >= 300) continue;
    const id = String(r.headers['webhook-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
