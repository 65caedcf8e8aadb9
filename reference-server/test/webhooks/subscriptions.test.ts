import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { advanceDays, click, connectedProgram, nowSeconds, programMetrics, serverLead, svcMetadata, type ConnectedProgram } from './setup';
import { checkoutSessionCompleted, deliver, invoicePaymentSucceeded, type InvoiceShape } from './stripe-events';

describe('POST /api/v1/webhooks/processor: subscriptions (invoice.payment_succeeded)', () => {
  let h: Harness;
  afterEach(() => h.close());

  describe('recurring commission program', () => {
    let p: ConnectedProgram;
    let clickId: string;
    const customerKey = 'user_subscriber';

    beforeEach(async () => {
      h = await createHarness();
      p = await connectedProgram(h, { commission_type: 'recurring_percent', commission_rate: 20 });
      clickId = await click(h, p.shortLink);
      await serverLead(h, p.apiKey, clickId, customerKey);
    });

    const invoice = async (billingReason: 'subscription_create' | 'subscription_cycle', shape: InvoiceShape, extra = {}) =>
      invoicePaymentSucceeded({
        account: p.account,
        created: await nowSeconds(h),
        billingReason,
        shape,
        amountPaid: 1500,
        metadata: svcMetadata(p.programId, clickId, customerKey),
        subscription: 'sub_pro_1',
        ...extra,
      });

    it('leaves the subscription checkout to the invoice: the first payment is counted once', async () => {
      const checkout = checkoutSessionCompleted({
        account: p.account,
        created: await nowSeconds(h),
        mode: 'subscription',
        amountTotal: 1500,
        metadata: svcMetadata(p.programId, clickId, customerKey),
      });
      const ignored = await deliver(h, p.secret, checkout);
      expect(ignored.body).toEqual({ received: true, outcome: 'ignored', reason: 'subscription_checkout' });
      expect((await h.control.records(p.programId)).sales).toEqual([]);

      const first = await deliver(h, p.secret, await invoice('subscription_create', 'current', { invoiceId: 'in_first_1' }));
      expect(first.body).toEqual({ received: true, outcome: 'recorded', sale_id: expect.any(Number) });
      const records = await h.control.records(p.programId);
      // Current API shape: no payment_intent on the invoice, so the invoice id names the payment.
      expect(records.sales).toMatchObject([
        { id: first.body.sale_id, processor_event_id: 'in_first_1', amount_cents: 1500, currency: 'USD' },
      ]);
      expect(records.commissions).toMatchObject([{ sale_id: first.body.sale_id, amount_cents: 300, status: 'pending' }]);
      expect(records.customers).toMatchObject([{ customer_key: customerKey, status: 'converted' }]);
    });

    it('pays the recurring commission again on a renewal a month later', async () => {
      const first = await deliver(h, p.secret, await invoice('subscription_create', 'previous', { paymentIntent: 'pi_month_1' }));
      expect(first.body.outcome).toBe('recorded');
      await advanceDays(h, 31);
      const renewal = await deliver(h, p.secret, await invoice('subscription_cycle', 'previous', { paymentIntent: 'pi_month_2' }));
      expect(renewal.body).toEqual({ received: true, outcome: 'recorded', sale_id: expect.any(Number) });

      const records = await h.control.records(p.programId);
      expect(records.sales.map((s) => [s.processor_event_id, s.amount_cents])).toEqual([
        ['pi_month_1', 1500],
        ['pi_month_2', 1500],
      ]);
      expect(records.commissions.map((c) => [c.sale_id, c.amount_cents])).toEqual([
        [first.body.sale_id, 300],
        [renewal.body.sale_id, 300],
      ]);
      expect(await programMetrics(h, p.programId)).toMatchObject({ sales: 2, processor_sales: 2 });
    });

    it('keeps paying renewals long after the window: once converted, payments are not re-checked', async () => {
      await deliver(h, p.secret, await invoice('subscription_create', 'current'));
      for (let month = 1; month <= 3; month += 1) {
        await advanceDays(h, 30);
        const renewal = await deliver(h, p.secret, await invoice('subscription_cycle', 'current'));
        expect(renewal.body.outcome, `month ${month}`).toBe('recorded');
      }
      const records = await h.control.records(p.programId);
      expect(records.sales).toHaveLength(4);
      expect(records.commissions).toHaveLength(4);
    });

    it('reads the subscription metadata from the line items of older API versions', async () => {
      const res = await deliver(h, p.secret, await invoice('subscription_create', 'lines', { paymentIntent: 'pi_lines_1' }));
      expect(res.body.outcome).toBe('recorded');
      expect((await h.control.records(p.programId)).sales).toMatchObject([{ processor_event_id: 'pi_lines_1' }]);
    });

    it('ignores trial invoices that collect nothing and invoices outside a subscription', async () => {
      const trial = await deliver(h, p.secret, await invoice('subscription_create', 'current', { amountPaid: 0 }));
      expect(trial.body).toEqual({ received: true, outcome: 'ignored', reason: 'no_payment' });
      const manual = await deliver(h, p.secret, await invoice('subscription_create', 'current', { billingReason: 'manual' }));
      expect(manual.body).toEqual({ received: true, outcome: 'ignored', reason: 'not_subscription_invoice' });
      expect((await h.control.records(p.programId)).sales).toEqual([]);
    });
  });

  describe('a percent program pays once per customer', () => {
    it('records the renewal as a sale whose commission pays 0', async () => {
      h = await createHarness();
      const p = await connectedProgram(h, { commission_type: 'percent', commission_rate: 10 });
      const clickId = await click(h, p.shortLink);
      await serverLead(h, p.apiKey, clickId, 'user_percent');
      const metadata = svcMetadata(p.programId, clickId, 'user_percent');
      const first = await deliver(h, p.secret, invoicePaymentSucceeded({ account: p.account, created: await nowSeconds(h), metadata }));
      await advanceDays(h, 30);
      const renewal = await deliver(
        h,
        p.secret,
        invoicePaymentSucceeded({ account: p.account, created: await nowSeconds(h), billingReason: 'subscription_cycle', metadata }),
      );
      expect([first.body.outcome, renewal.body.outcome]).toEqual(['recorded', 'recorded']);
      const records = await h.control.records(p.programId);
      expect(records.sales).toHaveLength(2);
      expect(records.commissions).toMatchObject([
        { sale_id: first.body.sale_id, amount_cents: 150 },
        { sale_id: renewal.body.sale_id, amount_cents: 0 },
      ]);
    });
  });

  describe('a customer whose click is outside the attribution window', () => {
    it('is not attributed on the first payment nor on the renewal, and nothing is recorded', async () => {
      h = await createHarness();
      const p = await connectedProgram(h, { commission_type: 'recurring_fixed', commission_rate: 500, attribution_window_days: 30 });
      const clickId = await click(h, p.shortLink);
      await advanceDays(h, 31);
      // The signup comes 31 days after the click: the click is older than the window at signup.
      await serverLead(h, p.apiKey, clickId, 'user_late');
      const metadata = svcMetadata(p.programId, clickId, 'user_late');

      const first = await deliver(h, p.secret, invoicePaymentSucceeded({ account: p.account, created: await nowSeconds(h), metadata }));
      expect(first.body).toEqual({ received: true, outcome: 'not_attributed', reason: 'outside_window' });
      await advanceDays(h, 30);
      const renewal = await deliver(
        h,
        p.secret,
        invoicePaymentSucceeded({ account: p.account, created: await nowSeconds(h), billingReason: 'subscription_cycle', metadata }),
      );
      expect(renewal.body).toEqual({ received: true, outcome: 'not_attributed', reason: 'outside_window' });

      const records = await h.control.records(p.programId);
      expect(records.sales).toEqual([]);
      expect(records.commissions).toEqual([]);
      expect(records.customers).toMatchObject([{ status: 'lead' }]);
      expect(await programMetrics(h, p.programId)).toMatchObject({ sales: 0, processor_sales: 0 });
    });

    it("without a signup, the payment's own time is checked: a payment 31 days after the click is refused", async () => {
      h = await createHarness();
      const p = await connectedProgram(h, { commission_type: 'recurring_fixed', commission_rate: 500, attribution_window_days: 30 });
      const clickId = await click(h, p.shortLink);
      await advanceDays(h, 31);
      const metadata = svcMetadata(p.programId, clickId, undefined);
      const late = await deliver(h, p.secret, invoicePaymentSucceeded({ account: p.account, created: await nowSeconds(h), metadata }));
      expect(late.body).toMatchObject({ outcome: 'not_attributed', reason: 'outside_window' });
      expect((await h.control.records(p.programId)).sales).toEqual([]);
    });
  });
});
