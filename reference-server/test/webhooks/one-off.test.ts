import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import {
  click,
  connectedProgram,
  nowSeconds,
  processorEventCount,
  programMetrics,
  serverLead,
  svcMetadata,
  type ConnectedProgram,
} from './setup';
import { checkoutSessionCompleted, deliver, otherEvent } from './stripe-events';

describe('POST /api/v1/webhooks/processor: one-off payments (checkout.session.completed, mode: payment)', () => {
  let h: Harness;
  let p: ConnectedProgram;
  let clickId: string;
  const customerKey = 'user_one_off';

  beforeEach(async () => {
    h = await createHarness();
    p = await connectedProgram(h, { commission_type: 'percent', commission_rate: 10 });
    clickId = await click(h, p.shortLink);
    await serverLead(h, p.apiKey, clickId, customerKey);
  });
  afterEach(() => h.close());

  const purchase = async (options: { paymentIntent?: string; currency?: string; metadata?: Record<string, string>; id?: string } = {}) =>
    checkoutSessionCompleted({
      account: p.account,
      created: await nowSeconds(h),
      amountTotal: 4900,
      metadata: svcMetadata(p.programId, clickId, customerKey),
      ...options,
    });

  it('records the sale under the PaymentIntent id, with its commission, conversion and processor metrics', async () => {
    const event = await purchase({ paymentIntent: 'pi_one_off_1' });
    const res = await deliver(h, p.secret, event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'recorded', sale_id: expect.any(Number) });

    const records = await h.control.records(p.programId);
    expect(records.sales).toEqual([
      { id: res.body.sale_id, processor_event_id: 'pi_one_off_1', amount_cents: 4900, currency: 'USD', is_test: false, refunded: false },
    ]);
    expect(records.commissions).toEqual([{ id: expect.any(Number), sale_id: res.body.sale_id, amount_cents: 490, status: 'pending' }]);
    expect(records.customers).toMatchObject([
      { customer_key: customerKey, click_id: clickId, partner_id: p.partnerId, status: 'converted' },
    ]);
    expect(await programMetrics(h, p.programId)).toMatchObject({ sales: 1, processor_sales: 1, leads: 1 });

    const sale = await h.store.db.selectFrom('sales').selectAll().where('id', '=', res.body.sale_id).executeTakeFirstOrThrow();
    expect(sale).toMatchObject({ source: 'processor', provider: 'stripe', livemode: 0, partner_id: p.partnerId });
  });

  it('attributes from svc_click_id alone or from svc_customer_key alone', async () => {
    const byClick = await deliver(h, p.secret, await purchase({ metadata: svcMetadata(p.programId, clickId, undefined) }));
    expect(byClick.body.outcome).toBe('recorded');
    const byKey = await deliver(h, p.secret, await purchase({ metadata: { svc_customer_key: customerKey } }));
    expect(byKey.body.outcome).toBe('recorded');
    // percent pays once per customer, on the converting sale (spec Decision); the second sale's commission is 0.
    const records = await h.control.records(p.programId);
    expect(records.sales).toHaveLength(2);
    expect(records.commissions.map((c) => c.amount_cents)).toEqual([expect.any(Number), 0]);
    expect(records.commissions[0]!.amount_cents).toBeGreaterThan(0);
  });

  it('a redelivered event records nothing new and answers 200 duplicate with the same sale', async () => {
    const event = await purchase();
    const first = await deliver(h, p.secret, event);
    const again = await deliver(h, p.secret, event);
    const later = await deliver(h, p.secret, event, { timestamp: await nowSeconds(h) });
    expect(first.body.outcome).toBe('recorded');
    for (const res of [again, later]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'duplicate', sale_id: first.body.sale_id });
    }
    const records = await h.control.records(p.programId);
    expect(records.sales).toHaveLength(1);
    expect(records.commissions).toHaveLength(1);
    expect(await programMetrics(h, p.programId)).toMatchObject({ sales: 1, processor_sales: 1 });
    expect(await processorEventCount(h)).toBe(1);
  });

  it('two concurrent deliveries of one event record one sale: one answer recorded, the other duplicate', async () => {
    const event = await purchase();
    const answers = await Promise.all([deliver(h, p.secret, event), deliver(h, p.secret, event), deliver(h, p.secret, event)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const outcomes = answers.map((a) => a.body.outcome).sort();
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'recorded']);
    expect(new Set(answers.map((a) => a.body.sale_id)).size).toBe(1);
    const records = await h.control.records(p.programId);
    expect(records.sales).toHaveLength(1);
    expect(records.commissions).toHaveLength(1);
    expect(await programMetrics(h, p.programId)).toMatchObject({ sales: 1, processor_sales: 1 });
  });

  it('the sale endpoint first, then the webhook for the same PaymentIntent: counted once', async () => {
    const sale = await h.request('POST', '/api/v1/track/sale', {
      key: p.apiKey,
      json: { transaction_id: 'pi_both_1', amount_cents: 4900, currency: 'USD', customer_key: customerKey },
    });
    expect(sale.status, sale.text).toBe(200);
    const res = await deliver(h, p.secret, await purchase({ paymentIntent: 'pi_both_1' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'duplicate', sale_id: sale.body.sale_id });
    const records = await h.control.records(p.programId);
    expect(records.sales.map((s) => s.processor_event_id)).toEqual(['pi_both_1']);
    expect(records.commissions).toHaveLength(1);
    expect(await programMetrics(h, p.programId)).toMatchObject({ sales: 1, processor_sales: 0 });
  });

  it('the webhook first, then the sale endpoint for the same PaymentIntent: 409 with the webhook sale', async () => {
    const res = await deliver(h, p.secret, await purchase({ paymentIntent: 'pi_both_2' }));
    expect(res.body.outcome).toBe('recorded');
    const sale = await h.request('POST', '/api/v1/track/sale', {
      key: p.apiKey,
      json: { transaction_id: 'pi_both_2', amount_cents: 4900, currency: 'USD', customer_key: customerKey },
    });
    expect(sale.status).toBe(409);
    expect(sale.body.error.details).toEqual({ sale_id: res.body.sale_id, amount_cents: 4900, currency: 'USD' });
    expect((await h.control.records(p.programId)).sales).toHaveLength(1);
  });

  it('a payment without svc metadata is not attributed and records nothing', async () => {
    const res = await deliver(h, p.secret, await purchase({ metadata: {} }));
    expect(res.body).toEqual({ received: true, outcome: 'not_attributed', reason: 'no_metadata' });
    expect((await h.control.records(p.programId)).sales).toEqual([]);
  });

  it("a customer key of another program's customer is not attributed here, as an unknown key", async () => {
    const other = await connectedProgram(h);
    await serverLead(h, other.apiKey, await click(h, other.shortLink), 'user_elsewhere');
    const res = await deliver(h, p.secret, await purchase({ metadata: { svc_customer_key: 'user_elsewhere' } }));
    expect(res.body).toEqual({ received: true, outcome: 'not_attributed', reason: 'customer_not_found' });
    expect((await h.control.records(p.programId)).sales).toEqual([]);
    expect((await h.control.records(other.programId)).sales).toEqual([]);
  });

  it('a payment for an unknown customer is not attributed and records nothing', async () => {
    const res = await deliver(h, p.secret, await purchase({ metadata: svcMetadata(p.programId, undefined, 'nobody') }));
    expect(res.body).toEqual({ received: true, outcome: 'not_attributed', reason: 'customer_not_found' });
    expect((await h.control.records(p.programId)).sales).toEqual([]);
  });

  it('a currency the service does not support is not attributed (200, not 422) and records nothing', async () => {
    const res = await deliver(h, p.secret, await purchase({ currency: 'gbp' }));
    expect(res.body).toEqual({ received: true, outcome: 'not_attributed', reason: 'unsupported_currency' });
    expect((await h.control.records(p.programId)).sales).toEqual([]);
  });

  it('upper-cases the currency Stripe sends in lower case', async () => {
    const res = await deliver(h, p.secret, await purchase({ currency: 'eur' }));
    expect(res.body.outcome).toBe('recorded');
    expect((await h.control.records(p.programId)).sales[0]?.currency).toBe('EUR');
  });

  it('events the service does not use answer 200 ignored and change nothing, whatever their account', async () => {
    const created = await nowSeconds(h);
    const before = await h.control.records(p.programId);
    for (const type of ['payment_intent.succeeded', 'customer.subscription.created', 'charge.succeeded', 'invoice.paid']) {
      for (const account of [p.account, 'acct_unknown']) {
        const res = await deliver(h, p.secret, otherEvent(type, { account, created }));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ received: true, outcome: 'ignored', reason: 'event_type_not_used' });
      }
    }
    const unpaid = checkoutSessionCompleted({
      account: p.account,
      created,
      paymentStatus: 'unpaid',
      metadata: svcMetadata(p.programId, clickId, customerKey),
    });
    expect((await deliver(h, p.secret, unpaid)).body).toEqual({ received: true, outcome: 'ignored', reason: 'no_payment' });
    expect(await h.control.records(p.programId)).toEqual(before);
    expect(await processorEventCount(h)).toBe(0);
  });

  it('a failure while recording answers 500 and remembers nothing, so the redelivery records the sale', async () => {
    const event = await purchase();
    await h.control.armFault({ point: 'sale' });
    const failed = await deliver(h, p.secret, event);
    expect(failed.status).toBe(500);
    expect((await h.control.records(p.programId)).sales).toEqual([]);
    const redelivered = await deliver(h, p.secret, event, { timestamp: await nowSeconds(h) });
    expect(redelivered.body.outcome).toBe('recorded');
    expect((await h.control.records(p.programId)).sales).toHaveLength(1);
  });
});
