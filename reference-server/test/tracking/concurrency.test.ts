import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ testControl: true, databaseUrl: process.env.DATABASE_URL ?? 'sqlite::memory:' });
});
afterAll(() => server.close());

async function post(path: string, body: unknown, key?: string) {
  const res = await contractFetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key.trim()}` }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A program whose customer `key` came through a partner's link (a click, then a server lead): its sales are attributed. */
async function attributedCustomer(key: string, program?: Parameters<ReferenceServer['control']['createProgram']>[0]) {
  const created = await server.control.createProgram(program);
  const partner = await server.control.createPartner({ program_id: created.id });
  const link = await server.control.createLink({ partner_id: partner.id });
  const click = await post('/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
  await post('/api/v1/track/lead', { click_id: click.body.click_id, customer_key: key }, created.api_token);
  return created;
}

describe('transaction_id is unique by the database constraint, over a real socket', () => {
  it('20 identical sales at once: exactly one 200 and 19 × 409 with the same sale_id', async () => {
    const program = await attributedCustomer('racer');

    const sale = { transaction_id: `ch_race_${Date.now()}`, amount_cents: 4900, customer_key: 'racer' };
    const results = await Promise.all(Array.from({ length: 20 }, () => post('/api/v1/track/sale', sale, program.api_token)));
    const ok = results.filter((r) => r.status === 200);
    const duplicates = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(duplicates).toHaveLength(19);
    for (const d of duplicates) {
      expect(d.body.error).toMatchObject({ code: 'duplicate_transaction', details: { sale_id: ok[0]?.body.sale_id } });
    }
    const records = await server.control.records(program.id);
    expect(records.sales).toHaveLength(1);
    expect(records.commissions).toHaveLength(1);
  });

  it('sales refused in the batch of good ones are answered as if alone, write nothing, and the good ones are recorded', async () => {
    const program = await attributedCustomer('mixed');
    const taken = `ch_taken_${Date.now()}`;
    const first = await post('/api/v1/track/sale', { transaction_id: taken, amount_cents: 700, customer_key: 'mixed' }, program.api_token);

    // Sent together, so that they share a group-commit batch: two good sales, a reused transaction id, an unknown customer.
    const [good, duplicate, unknown, alsoGood] = await Promise.all([
      post('/api/v1/track/sale', { transaction_id: `${taken}_a`, amount_cents: 100, customer_key: 'mixed' }, program.api_token),
      post('/api/v1/track/sale', { transaction_id: taken, amount_cents: 999, customer_key: 'mixed' }, program.api_token),
      post('/api/v1/track/sale', { transaction_id: `${taken}_b`, amount_cents: 100, customer_key: 'nobody' }, program.api_token),
      post('/api/v1/track/sale', { transaction_id: `${taken}_c`, amount_cents: 100, customer_key: 'mixed' }, program.api_token),
    ]);
    expect([good.status, duplicate.status, unknown.status, alsoGood.status]).toEqual([200, 409, 400, 200]);
    expect(duplicate.body.error).toMatchObject({
      code: 'duplicate_transaction',
      details: { sale_id: first.body.sale_id, amount_cents: 700, currency: 'USD' },
    });
    expect(unknown.body.error.message).toBe('Customer not found. Provide customer_key or click_id.');
    const records = await server.control.records(program.id);
    expect(records.sales.map((s) => s.amount_cents).sort((a, b) => a - b)).toEqual([100, 100, 700]);
    expect(records.commissions).toHaveLength(3);
  });

  it('concurrent sales of one customer pay a one-time commission once', async () => {
    const program = await attributedCustomer('twice', { commission_type: 'fixed', commission_rate: 500 });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post(
          '/api/v1/track/sale',
          { transaction_id: `ch_multi_${Date.now()}_${i}`, amount_cents: 100, customer_key: 'twice' },
          program.api_token,
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Every real sale has its commission (spec/rules.md "Resources/Commission"); exactly one of them pays.
    const commissions = (await server.control.records(program.id)).commissions;
    expect(commissions).toHaveLength(5);
    expect(commissions.map((c) => c.amount_cents).sort((a, b) => b - a)).toEqual([500, 0, 0, 0, 0]);
  });
});

describe("a customer's lead is decided once, over a real socket", () => {
  /** A program with one click through a partner's link, and that click's id. */
  async function clicked() {
    const program = await server.control.createProgram();
    const partner = await server.control.createPartner({ program_id: program.id });
    const link = await server.control.createLink({ partner_id: partner.id });
    const click = await post('/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
    return { program, clickId: click.body.click_id as string };
  }

  it.each([1, 2])('10 leads at once on one click (%i keys): one is recorded, the others are second leads', async (keys) => {
    const { program, clickId } = await clicked();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post('/api/v1/track/lead', { click_id: clickId, customer_key: `racer-${i % keys}` }, program.api_token),
      ),
    );
    const recorded = results.filter((r) => r.status === 200);
    expect(recorded).toHaveLength(1);
    for (const refused of results.filter((r) => r.status !== 200)) {
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe('Customer status cannot be updated to lead. Current status: lead');
    }
    const customers = (await server.control.records(program.id)).customers;
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ click_id: clickId, status: 'lead' });
    expect(customers[0]!.customer_key).toMatch(/^racer-[01]$/);
  });
});

describe('credentials over a real socket', () => {
  it('an empty token after "Bearer " (sent as "Bearer" once HTTP trims it) is Missing API token on sale, Invalid API token on refund', async () => {
    const sale = await post('/api/v1/track/sale', { transaction_id: 'ch_x', amount_cents: 1 }, ' ');
    expect(sale.status).toBe(401);
    expect(sale.body.error.message).toBe('Missing API token');
    const refund = await post('/api/v1/track/refund', { transaction_id: 'ch_x' }, ' ');
    expect(refund.body.error.message).toBe('Invalid API token');
  });
});
