import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { click, connectedProgram, nowSeconds, programMetrics, svcMetadata, type ConnectedProgram } from './setup';
import { checkoutSessionCompleted, deliver, invoicePaymentSucceeded } from './stripe-events';

describe('POST /api/v1/webhooks/processor: a provisional lead is settled by the webhook (spec/rules.md "States and transitions")', () => {
  let h: Harness;
  let p: ConnectedProgram;
  let clickId: string;

  beforeEach(async () => {
    h = await createHarness();
    p = await connectedProgram(h, { lead_auth: 'server_required', commission_type: 'percent', commission_rate: 10 });
    clickId = await click(h, p.shortLink);
    // A browser-mode lead at a server_required program is provisional: no key stored, not counted.
    const lead = await h.request('POST', '/api/v1/track/lead', { json: { click_id: clickId } });
    expect(lead.body).toMatchObject({ success: true, provisional: true, attributed: true });
    expect(await programMetrics(h, p.programId)).toMatchObject({ leads: 0 });
  });
  afterEach(() => h.close());

  it('a one-off payment settles the lead (counted per lead, key stored) and records the sale', async () => {
    const event = checkoutSessionCompleted({
      account: p.account,
      created: await nowSeconds(h),
      metadata: svcMetadata(p.programId, clickId, 'user_provisional'),
    });
    const res = await deliver(h, p.secret, event);
    expect(res.body).toEqual({ received: true, outcome: 'recorded', sale_id: expect.any(Number) });

    const records = await h.control.records(p.programId);
    expect(records.customers).toMatchObject([
      { click_id: clickId, customer_key: 'user_provisional', provisional: false, status: 'converted' },
    ]);
    expect(records.sales).toHaveLength(1);
    expect(records.commissions).toHaveLength(1);
    expect(await programMetrics(h, p.programId)).toMatchObject({ leads: 1, sales: 1, processor_sales: 1 });

    // Settled as a lead: the key now resolves the customer on the sale endpoint too.
    const later = await h.request('POST', '/api/v1/track/sale', {
      key: p.apiKey,
      json: { transaction_id: 'pi_after_settle', amount_cents: 1000, currency: 'USD', customer_key: 'user_provisional' },
    });
    expect(later.status, later.text).toBe(200);
  });

  it('a subscription invoice settles the lead the same way', async () => {
    const event = invoicePaymentSucceeded({
      account: p.account,
      created: await nowSeconds(h),
      metadata: svcMetadata(p.programId, clickId, 'user_provisional_sub'),
    });
    expect((await deliver(h, p.secret, event)).body.outcome).toBe('recorded');
    const records = await h.control.records(p.programId);
    expect(records.customers).toMatchObject([{ customer_key: 'user_provisional_sub', provisional: false, status: 'converted' }]);
    expect(await programMetrics(h, p.programId)).toMatchObject({ leads: 1 });
  });

  it('a redelivery settles nothing twice', async () => {
    const event = checkoutSessionCompleted({
      account: p.account,
      created: await nowSeconds(h),
      metadata: svcMetadata(p.programId, clickId, 'user_once'),
    });
    await deliver(h, p.secret, event);
    const again = await deliver(h, p.secret, event);
    expect(again.body.outcome).toBe('duplicate');
    expect(await programMetrics(h, p.programId)).toMatchObject({ leads: 1, sales: 1 });
  });

  it('a subscription checkout does not settle it (left to the invoice event)', async () => {
    const checkout = checkoutSessionCompleted({
      account: p.account,
      created: await nowSeconds(h),
      mode: 'subscription',
      metadata: svcMetadata(p.programId, clickId, 'user_sub_checkout'),
    });
    expect((await deliver(h, p.secret, checkout)).body.outcome).toBe('ignored');
    expect((await h.control.records(p.programId)).customers).toMatchObject([{ provisional: true, status: 'provisional_lead' }]);
  });

  it('a sale on the sale endpoint leaves it provisional (contrast)', async () => {
    const sale = await h.request('POST', '/api/v1/track/sale', {
      key: p.apiKey,
      json: { transaction_id: 'pi_api_only', amount_cents: 1000, currency: 'USD', click_id: clickId },
    });
    expect(sale.status, sale.text).toBe(200);
    expect((await h.control.records(p.programId)).customers).toMatchObject([{ provisional: true }]);
    expect(await programMetrics(h, p.programId)).toMatchObject({ leads: 0 });
  });
});
