import { randomBytes } from 'node:crypto';
import type { ServerProcess } from '../scale/server-process';

export interface SalesFixture {
  programId: number;
  key: string;
  customerKey: string;
}

/** A program paying on every sale (recurring_percent), with one attributed customer: each sale gets a commission. */
export async function salesFixture(server: ServerProcess): Promise<SalesFixture> {
  const program = await server.control.createProgram({ commission_type: 'recurring_percent', commission_rate: 10 });
  const partner = await server.control.createPartner({ program_id: program.id });
  const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
  const post = async (path: string, body: unknown, key?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const click = await post('/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
  const customerKey = `faults-${randomBytes(4).toString('hex')}`;
  await post('/api/v1/track/lead', { click_id: click.click_id, customer_key: customerKey }, program.api_token);
  return { programId: program.id, key: program.api_token, customerKey };
}

export function saleBody(fixture: SalesFixture, transactionId: string, amountCents = 1000) {
  return JSON.stringify({ transaction_id: transactionId, amount_cents: amountCents, currency: 'USD', customer_key: fixture.customerKey });
}
