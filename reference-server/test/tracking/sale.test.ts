import { describe, expect, it } from 'vitest';
import { readMetrics } from '../../src/domain/metrics/read';
import { createWorld, platformError, trackingSuite, txnId, type World } from './world';
import { readProgramMetrics } from '../../src/store/engine';

const t = trackingSuite();

const day = 86_400;
/** A customer who clicked and signed up; returns its key and click id. */
async function customer(world: World, key = `user_${Math.random().toString(36).slice(2)}`) {
  const clickId = await world.clickId();
  const res = await world.lead({ click_id: clickId, customer_key: key });
  expect(res.status).toBe(200);
  return { key, clickId };
}

describe('POST /api/v1/track/sale', () => {
  it('records the sale, its commission and the metrics', async () => {
    const { key, clickId } = await customer(t.w);
    const transaction = txnId();
    const res = await t.w.sale({ transaction_id: transaction, amount_cents: 4900, currency: 'USD', customer_key: key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      sale_id: expect.any(Number),
      commission_id: expect.any(Number),
      message: 'Sale recorded',
      transaction_id: transaction,
    });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['x-ratelimit-limit']).toBe('120');
    const records = await t.w.records();
    expect(records.sales).toEqual([
      { id: res.body.sale_id, processor_event_id: transaction, amount_cents: 4900, currency: 'USD', is_test: false, refunded: false },
    ]);
    expect(records.commissions).toEqual([{ id: res.body.commission_id, sale_id: res.body.sale_id, amount_cents: 490, status: 'pending' }]);
    expect(records.customers[0]).toMatchObject({ click_id: clickId, status: 'converted' });
    expect(await readMetrics(t.h.store.db, t.w.programId)).toEqual({
      clicks: 1,
      leads: 1,
      sales: 1,
      revenue_cents: { USD: 4900 },
      commissions_cents: { USD: 490 },
    });
    const event = await t.h.store.db.selectFrom('events').selectAll().where('type', '=', 'sale').executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      sale_id: res.body.sale_id,
      amount_cents: 4900,
      currency: 'USD',
      source: 'api',
      partner_id: t.w.partnerId,
    });
  });

  it('attributes by click_id, defaults the currency to USD and keeps currencies apart', async () => {
    const clickId = await t.w.clickId();
    expect((await t.w.sale({ transaction_id: txnId(), amount_cents: 1000, click_id: clickId })).status).toBe(200);
    const recurring = await createWorld(t.h, { commission_type: 'recurring_percent', commission_rate: 10 });
    const c = await customer(recurring);
    await recurring.sale({ transaction_id: txnId(), amount_cents: 1000, currency: 'EUR', customer_key: c.key });
    await recurring.sale({ transaction_id: txnId(), amount_cents: 50_000, currency: 'VND', customer_key: c.key });
    expect((await t.w.records()).sales[0]?.currency).toBe('USD');
    // Stripe writes currencies lower-case: any case is accepted and stored upper-case.
    await recurring.sale({ transaction_id: txnId(), amount_cents: 1, currency: 'eur', customer_key: c.key });
    await recurring.sale({ transaction_id: txnId(), amount_cents: 1, currency: 'Eur', customer_key: c.key });
    expect((await recurring.records()).sales.slice(-2).map((sale) => sale.currency)).toEqual(['EUR', 'EUR']);
    const m = await readMetrics(t.h.store.db, recurring.programId);
    expect(m.revenue_cents).toEqual({ EUR: 1002, VND: 50_000 });
    expect(m.commissions_cents).toEqual({ EUR: 100, VND: 5000 });
  });

  it('answers every validation message with error.code invalid_request or unsupported_currency, recording nothing', async () => {
    const { key } = await customer(t.w);
    const base = { transaction_id: 'ch_valid', amount_cents: 100, customer_key: key };
    const now = Date.now();
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ ...base, transaction_id: undefined }, 400, 'transaction_id is required and must be a string', 'invalid_request'],
      [{ ...base, transaction_id: 42 }, 400, 'transaction_id is required and must be a string', 'invalid_request'],
      [{ ...base, transaction_id: '' }, 400, 'transaction_id is required and must be a string', 'invalid_request'],
      [{ ...base, transaction_id: 'x'.repeat(256) }, 400, 'transaction_id is required and must be a string', 'invalid_request'],
      [{ ...base, amount_cents: undefined }, 400, 'amount_cents is required and must be a positive integer', 'invalid_request'],
      [{ ...base, amount_cents: 0 }, 400, 'amount_cents is required and must be a positive integer', 'invalid_request'],
      [{ ...base, amount_cents: -5 }, 400, 'amount_cents is required and must be a positive integer', 'invalid_request'],
      [{ ...base, amount_cents: 9.5 }, 400, 'amount_cents is required and must be a positive integer', 'invalid_request'],
      [{ ...base, amount_cents: '100' }, 400, 'amount_cents is required and must be a positive integer', 'invalid_request'],
      [{ ...base, currency: 'GBP' }, 422, 'currency GBP is not supported', 'unsupported_currency'],
      [{ ...base, currency: 'usd$' }, 422, 'currency usd$ is not supported', 'unsupported_currency'],
      [
        { ...base, occurred_at: '2024-01-01T00:00:00' },
        400,
        'occurred_at must be an ISO 8601 time within the last 30 days',
        'invalid_request',
      ],
      [
        { ...base, occurred_at: '2025-02-30T00:00:00Z' },
        400,
        'occurred_at must be an ISO 8601 time within the last 30 days',
        'invalid_request',
      ],
      [{ ...base, occurred_at: 'yesterday' }, 400, 'occurred_at must be an ISO 8601 time within the last 30 days', 'invalid_request'],
      [
        { ...base, occurred_at: new Date(now - 31 * day * 1000).toISOString() },
        400,
        'occurred_at must be an ISO 8601 time within the last 30 days',
        'invalid_request',
      ],
      [
        { ...base, occurred_at: new Date(now + 10 * 60_000).toISOString() },
        400,
        'occurred_at must be an ISO 8601 time within the last 30 days',
        'invalid_request',
      ],
      [
        { ...base, provider: 'square' },
        400,
        'provider must be one of: stripe, paddle, lemonsqueezy, paypal, braintree, chargebee, recurly, manual',
        'invalid_request',
      ],
      [{ ...base, provider_payment_id: '' }, 400, 'provider_payment_id must be a string of 1 to 255 characters', 'invalid_request'],
      [
        { ...base, provider_payment_id: 'x'.repeat(256) },
        400,
        'provider_payment_id must be a string of 1 to 255 characters',
        'invalid_request',
      ],
      [{ ...base, livemode: 'yes' }, 400, 'livemode must be a boolean', 'invalid_request'],
    ];
    for (const [body, status, message, code] of cases) platformError(await t.w.sale(body), status, message, code);
    expect((await t.w.sale({ ...base, currency: 'GBP' })).body.error.details).toEqual({ supported: ['USD', 'EUR', 'VND'] });
    expect((await t.w.records()).sales).toEqual([]);
    const soon = await t.w.sale({ ...base, transaction_id: 'ch_soon', occurred_at: new Date(now + 4 * 60_000).toISOString() });
    expect(soon.status).toBe(200);
    const ok = await t.w.sale({
      ...base,
      occurred_at: new Date(now - 29 * day * 1000).toISOString().replace('Z', '+00:00'),
      provider: 'stripe',
      provider_payment_id: 'pi_1',
      livemode: false,
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a body that is not JSON as an invalid request (400 with error.code), recording nothing', async () => {
    const json = JSON.stringify({ transaction_id: txnId(), amount_cents: 100, customer_key: 'k' });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await t.h.request('POST', '/api/v1/track/sale', { raw: json, contentType, key: t.w.key });
      platformError(res, 400, 'Content-Type must be application/json', 'invalid_request');
    }
    expect((await t.w.records()).sales).toHaveLength(0);
  });

  it('answers a sale naming no customer with a request error, recording nothing', async () => {
    // spec/openapi.yaml `SaleRequest` **Decision**: neither field is the caller's mistake, not a missing attribution.
    for (const body of [{}, { customer_key: '' }, { click_id: '' }]) {
      const res = await t.w.sale({ transaction_id: txnId(), amount_cents: 100, ...body });
      platformError(res, 400, 'customer_key or click_id is required', 'invalid_request');
    }
    expect((await t.w.records()).sales).toHaveLength(0);
  });

  it('answers the no_attribution messages, recording nothing', async () => {
    platformError(
      await t.w.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'nobody' }),
      400,
      'Customer not found. Provide customer_key or click_id.',
      'no_attribution',
    );
    platformError(
      await t.w.sale({ transaction_id: txnId(), amount_cents: 100, click_id: 'clk_nope' }),
      400,
      'Customer not found. Provide customer_key or click_id.',
      'no_attribution',
    );
    const other = await createWorld(t.h);
    const elsewhere = await customer(other, 'shared_user');
    // A key known only to another program answers exactly as a key known nowhere (no cross-program oracle).
    const onlyElsewhere = await t.w.sale({ transaction_id: 'txn_same_shape', amount_cents: 100, customer_key: 'shared_user' });
    const nowhere = await t.w.sale({ transaction_id: 'txn_same_shape', amount_cents: 100, customer_key: 'no_such_user' });
    platformError(onlyElsewhere, 400, 'Customer not found. Provide customer_key or click_id.', 'no_attribution');
    expect(onlyElsewhere.body).toEqual(nowhere.body);
    platformError(
      await t.w.sale({ transaction_id: txnId(), amount_cents: 100, click_id: elsewhere.clickId }),
      400,
      'No affiliate attribution found for this customer in this program',
      'no_attribution',
    );
    await t.w.lead({ customer_key: 'cleared_cookie' });
    platformError(
      await t.w.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'cleared_cookie' }),
      400,
      'No partner-program relationship found for this customer',
      'no_attribution',
    );
    expect((await t.w.records()).sales).toEqual([]);
  });

  it('stores the sale but answers partnerId required to create commission when the partner is gone; a resend gets 409', async () => {
    const { key } = await customer(t.w);
    await t.h.store.db.deleteFrom('partners').where('id', '=', t.w.partnerId).execute();
    const transaction = txnId();
    platformError(
      await t.w.sale({ transaction_id: transaction, amount_cents: 100, customer_key: key }),
      400,
      'partnerId required to create commission',
      'no_attribution',
    );
    const records = await t.w.records();
    expect(records.sales).toHaveLength(1);
    expect(records.commissions).toEqual([]);
    const resend = await t.w.sale({ transaction_id: transaction, amount_cents: 100, customer_key: key });
    platformError(resend, 409, 'Duplicate transaction_id. This sale has already been recorded.', 'duplicate_transaction');
    expect(resend.body.error.details).toEqual({ sale_id: records.sales[0]?.id, amount_cents: 100, currency: 'USD' });
  });

  it('answers 409 with details.sale_id for a transaction_id already recorded in the program; another program learns nothing of it', async () => {
    const { key } = await customer(t.w);
    const transaction = txnId();
    const first = await t.w.sale({ transaction_id: transaction, amount_cents: 100, customer_key: key });
    const again = await t.w.sale({ transaction_id: transaction, amount_cents: 999, customer_key: key });
    platformError(again, 409, 'Duplicate transaction_id. This sale has already been recorded.', 'duplicate_transaction');
    // What was stored comes back, so the reuse with another amount is visible.
    expect(again.body.error.details).toEqual({ sale_id: first.body.sale_id, amount_cents: 100, currency: 'USD' });
    const other = await createWorld(t.h);
    const otherCustomer = await customer(other);
    const cross = await other.sale({ transaction_id: transaction, amount_cents: 100, customer_key: otherCustomer.key });
    expect(cross.status).toBe(409);
    expect(cross.body.error).toEqual({
      status: 409,
      name: 'ConflictError',
      code: 'duplicate_transaction',
      message:
        "Duplicate transaction_id. It is already used outside this program; send globally unique ids such as your payment processor's payment ids.",
      details: {},
    });
    expect((await t.w.records()).sales).toHaveLength(1);
    expect((await other.records()).sales).toHaveLength(0);
  });

  it("another program's test sale makes a real sale 409 without its sale id; the program's own test sale keeps it", async () => {
    const a = await createWorld(t.h);
    const b = await createWorld(t.h);
    const order = `order_${txnId()}`;
    const test = await a.sale({ transaction_id: order, amount_cents: 100, additional_data: { test_mode: true } });
    expect(test.status).toBe(200);
    const { key } = await customer(b);
    const cross = await b.sale({ transaction_id: order, amount_cents: 100, customer_key: key });
    expect(cross.status).toBe(409);
    expect(cross.body.error.details).toEqual({});
    const own = await customer(a);
    const same = await a.sale({ transaction_id: order, amount_cents: 100, customer_key: own.key });
    expect(same.body.error.details).toEqual({ sale_id: test.body.sale_id, amount_cents: 100, currency: 'USD' });
  });
});

describe('window check on sale', () => {
  it('compares the click with the signup: a late payment of a customer who signed up in the window is attributed', async () => {
    const short = await createWorld(t.h, { attribution_window_days: 30 });
    const clickId = await short.clickId();
    await t.h.control.clock({ advance_seconds: 20 * day });
    await short.lead({ click_id: clickId, customer_key: 'late_payer' });
    await t.h.control.clock({ advance_seconds: 80 * day });
    expect((await short.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'late_payer' })).status).toBe(200);
  });

  it('refuses a payment outside the window (no signup recorded), records nothing, and checks the next payment again', async () => {
    const short = await createWorld(t.h, { attribution_window_days: 30 });
    const clickId = await short.clickId();
    await t.h.control.clock({ advance_seconds: 31 * day });
    const late = await short.sale({ transaction_id: txnId(), amount_cents: 100, click_id: clickId });
    platformError(late, 400, 'Click is outside the attribution window for this customer', 'no_attribution');
    // A payment dated inside the window (occurred_at) is attributed.
    const inside = new Date(Date.parse((await t.h.control.clock({ advance_seconds: 0 })).now) - 2 * day * 1000).toISOString();
    expect((await short.sale({ transaction_id: txnId(), amount_cents: 100, click_id: clickId, occurred_at: inside })).status).toBe(200);
    expect((await short.records()).sales).toHaveLength(1);
  });

  it('refuses a signup that came after the window, and never re-checks after a conversion', async () => {
    const short = await createWorld(t.h, { attribution_window_days: 30, commission_type: 'recurring_fixed', commission_rate: 300 });
    const a = await short.clickId();
    await t.h.control.clock({ advance_seconds: 31 * day });
    await short.lead({ click_id: a, customer_key: 'slow_signup' });
    platformError(
      await short.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'slow_signup' }),
      400,
      'Click is outside the attribution window for this customer',
      'no_attribution',
    );

    const b = await short.clickId();
    await short.lead({ click_id: b, customer_key: 'subscriber' });
    expect((await short.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'subscriber' })).status).toBe(200);
    await t.h.control.clock({ advance_seconds: 400 * day });
    const renewal = await short.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'subscriber' });
    expect(renewal.status).toBe(200);
    expect(renewal.body.commission_id).toEqual(expect.any(Number));
  });
});

describe('commission types', () => {
  it('every real sale has a commission: percent and fixed pay once per customer (later ones are 0); recurring pay every sale', async () => {
    const expectations = [
      { commission_type: 'percent', commission_rate: 12.5, amounts: [613, 0] },
      { commission_type: 'fixed', commission_rate: 500, amounts: [500, 0] },
      { commission_type: 'recurring_percent', commission_rate: 20, amounts: [980, 980] },
      { commission_type: 'recurring_fixed', commission_rate: 250, amounts: [250, 250] },
    ] as const;
    for (const e of expectations) {
      const world = await createWorld(t.h, { commission_type: e.commission_type, commission_rate: e.commission_rate });
      const { key } = await customer(world);
      const paid: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await world.sale({ transaction_id: txnId(), amount_cents: 4900, customer_key: key });
        expect(res.status).toBe(200);
        expect(res.body.commission_id).toEqual(expect.any(Number));
        const commission = (await world.records()).commissions.find((c) => c.id === res.body.commission_id);
        paid.push(commission?.amount_cents ?? -1);
      }
      expect(paid, e.commission_type).toEqual(e.amounts);
      const m = await readMetrics(t.h.store.db, world.programId);
      expect(m.sales).toBe(2);
      expect(m.revenue_cents).toEqual({ USD: 9800 });
      expect(m.commissions_cents).toEqual({ USD: e.amounts.reduce<number>((s, a) => s + a, 0) });
    }
  });
});

describe('test mode', () => {
  it('generates test_txn_<timestamp>, creates no commission and leaves real metrics alone', async () => {
    const clickId = await t.w.clickId({ additional_data: { test_mode: true } });
    await t.w.lead({ click_id: clickId, customer_key: 'tester', additional_data: { test_mode: true } });
    const before = await readMetrics(t.h.store.db, t.w.programId);
    const res = await t.w.sale({ amount_cents: 4900, customer_key: 'tester', additional_data: { test_mode: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ commission_id: null, message: 'Test sale recorded (no commission)' });
    expect(res.body.transaction_id).toMatch(/^test_txn_\d+$/);
    const records = await t.w.records();
    expect(records.sales).toEqual([expect.objectContaining({ processor_event_id: res.body.transaction_id, is_test: true })]);
    expect(records.commissions).toEqual([]);
    expect(await readMetrics(t.h.store.db, t.w.programId)).toEqual(before);
    const counters = await readProgramMetrics(t.h.store.db, t.w.programId);
    expect(counters).toMatchObject({ sales: 0, test_sales: 1 });
    // Two test sales in the same millisecond still get distinct ids.
    const again = await t.w.sale({ amount_cents: 100, additional_data: { test_mode: true } });
    expect(again.status).toBe(200);
    expect(again.body.transaction_id).not.toBe(res.body.transaction_id);
  });

  it('never touches real attribution: a test sale for a real customer key is recorded unattributed', async () => {
    const { key } = await customer(t.w);
    const res = await t.w.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: key, additional_data: { test_mode: true } });
    expect(res.status).toBe(200);
    const records = await t.w.records();
    expect(records.customers.find((c) => c.customer_key === key)?.status).toBe('lead');
    const sale = await t.h.store.db.selectFrom('sales').selectAll().where('id', '=', res.body.sale_id).executeTakeFirstOrThrow();
    expect(sale).toMatchObject({ customer_id: null, partner_id: null, is_test: 1 });
  });
});

describe('provisional leads and the sale endpoint', () => {
  it('a sale on the sale endpoint does not settle a provisional lead', async () => {
    const clickId = await t.w.clickId();
    expect((await t.w.lead({ click_id: clickId }, null)).body.provisional).toBe(true);
    const res = await t.w.sale({ transaction_id: txnId(), amount_cents: 100, click_id: clickId });
    expect(res.status).toBe(200);
    const records = await t.w.records();
    expect(records.customers[0]).toMatchObject({ status: 'provisional_lead', provisional: true, customer_key: null });
    expect((await readMetrics(t.h.store.db, t.w.programId)).leads).toBe(0);
  });
});

describe('failures inside the service', () => {
  it('answers 500 Sale tracking failed and records nothing; a retry with the same transaction_id records it', async () => {
    const { key } = await customer(t.w);
    const transaction = txnId();
    await t.h.control.armFault({ point: 'sale' });
    const res = await t.w.sale({ transaction_id: transaction, amount_cents: 100, customer_key: key });
    platformError(res, 500, 'Sale tracking failed', 'internal_error');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect((await t.w.records()).sales).toEqual([]);
    expect((await t.w.sale({ transaction_id: transaction, amount_cents: 100, customer_key: key })).status).toBe(200);
  });

  it('answers 500 Failed to create commission with the sale stored; the transaction_id stays consumed (409)', async () => {
    const { key } = await customer(t.w);
    const transaction = txnId();
    await t.h.control.armFault({ point: 'commission' });
    platformError(
      await t.w.sale({ transaction_id: transaction, amount_cents: 1000, customer_key: key }),
      500,
      'Failed to create commission',
      'internal_error',
    );
    const records = await t.w.records();
    expect(records.sales).toHaveLength(1);
    expect(records.commissions).toEqual([]);
    const resend = await t.w.sale({ transaction_id: transaction, amount_cents: 1000, customer_key: key });
    expect(resend.status).toBe(409);
    expect(resend.body.error.details.sale_id).toBe(records.sales[0]?.id);
    // The stored sale is counted, without a commission.
    expect(await readMetrics(t.h.store.db, t.w.programId)).toMatchObject({
      sales: 1,
      revenue_cents: { USD: 1000 },
      commissions_cents: { USD: 0 },
    });
  });

  it('logs a metrics failure after the sale and commission are stored, and answers 200', async () => {
    const { key } = await customer(t.w);
    await t.h.control.armFault({ point: 'metrics' });
    const res = await t.w.sale({ transaction_id: txnId(), amount_cents: 1000, customer_key: key });
    expect(res.status).toBe(200);
    expect(res.body.commission_id).toEqual(expect.any(Number));
    expect((await t.w.records()).commissions).toHaveLength(1);
    expect((await readMetrics(t.h.store.db, t.w.programId)).sales).toBe(0);
  });
});

describe('money caps', () => {
  it('refuses amount_cents above 10^12 with the field message, recording nothing', async () => {
    const { key } = await customer(t.w);
    const res = await t.w.sale({ transaction_id: txnId(), amount_cents: 1e12 + 1, customer_key: key });
    platformError(res, 400, 'amount_cents is required and must be a positive integer', 'invalid_request');
    expect((await t.w.sale({ transaction_id: txnId(), amount_cents: 1e12, customer_key: key })).status).toBe(200);
    expect((await t.w.records()).sales).toHaveLength(1);
  });

  it('never stores a commission that is not a safe integer (a rate from before the caps): Failed to create commission', async () => {
    const w = await createWorld(t.h, { commission_type: 'percent', commission_rate: 1e308 });
    const { key } = await customer(w);
    const res = await w.sale({ transaction_id: txnId(), amount_cents: 1000, customer_key: key });
    platformError(res, 500, 'Failed to create commission', 'internal_error');
    const records = await w.records();
    expect(records.sales).toHaveLength(1);
    expect(records.commissions).toEqual([]);
  });
});
