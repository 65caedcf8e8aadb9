import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMetrics } from '../../src/domain/metrics/read';
import { createHarness, type Harness } from '../harness';
import { startReceiver, sleep, waitFor, type Receiver } from '../webhooks-out/receiver';
import { addEndpoint, shop, type Shop } from '../webhooks-out/support';
import { click, nowSeconds, processorEventCount, serverLead, svcMetadata } from './setup';
import { chargeRefunded, checkoutSessionCompleted, deliver, invoicePaymentSucceeded } from './stripe-events';

// charge.refunded (spec/openapi.yaml, processorWebhook): a full refund reverses the sale as POST /api/v1/track/refund
// does; a partial one changes nothing until the refund that completes the charge.
describe('POST /api/v1/webhooks/processor: charge.refunded', () => {
  let h: Harness;
  let r: Receiver;
  let s: Shop;
  let account: string;
  let secret: string;
  let clickId: string;
  let sequence = 0;
  const customerKey = 'user_refunded';

  beforeEach(async () => {
    h = await createHarness();
    r = await startReceiver();
    s = await shop(h); // percent 20
    account = `acct_refunds${++sequence}`;
    secret = (await h.control.connectProcessor({ program_id: s.program.id, account })).webhook_secret;
    await addEndpoint(s, r, { events: ['sale.refunded'] });
    clickId = await click(h, s.shortLink);
    await serverLead(h, s.key, clickId, customerKey);
  });
  afterEach(async () => {
    await r.close();
    await h.close();
  });

  /** A paid checkout through the webhook (20 % of 10,000 cents), answered `recorded`. */
  async function paidCheckout(paymentIntent: string, options: { account?: string | undefined } = { account: undefined }) {
    const res = await deliver(
      h,
      secret,
      checkoutSessionCompleted({
        account: 'account' in options ? options.account : account,
        created: await nowSeconds(h),
        paymentIntent,
        amountTotal: 10_000,
        metadata: svcMetadata(s.program.id, clickId, customerKey),
      }),
    );
    expect(res.body, res.text).toMatchObject({ outcome: 'recorded' });
    return res.body.sale_id as number;
  }
  const figures = async () => (await s.call('GET', '/partners')).body.data.partners[0].figures;
  const commission = async () => (await h.control.records(s.program.id)).commissions[0];

  it('a full refund reverses the sale and its commission, once, with the figures, metrics and sale.refunded', async () => {
    const saleId = await paidCheckout('pi_refund_full', { account });
    expect((await figures()).commissions).toEqual({
      due_cents: { USD: 2_000 },
      held_cents: {},
      pending_cents: {},
      paid_cents: {},
      reversed_cents: {},
      balance_cents: { USD: 2_000 },
    });

    const event = chargeRefunded({ account, created: await nowSeconds(h), paymentIntent: 'pi_refund_full', amount: 10_000 });
    const res = await deliver(h, secret, event);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'recorded', sale_id: saleId });

    expect(await commission()).toMatchObject({ sale_id: saleId, amount_cents: 2_000, status: 'reversed' });
    const sale = await h.store.db.selectFrom('sales').selectAll().where('id', '=', saleId).executeTakeFirstOrThrow();
    expect(sale).toMatchObject({ refunded: 1, refund_reason: 'refund', refund_note: `Stripe charge.refunded ${event.id}` });
    expect((await figures()).commissions).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: {},
      reversed_cents: { USD: 2_000 },
      balance_cents: {},
    });
    expect(await readMetrics(h.store.db, s.program.id)).toMatchObject({ revenue_cents: { USD: 0 }, commissions_cents: { USD: 0 } });

    const [sent] = await waitFor('sale.refunded delivered', () => r.received.length >= 1 && r.received);
    expect(sent!.verifyError).toBeUndefined();
    expect(sent!.specErrors).toEqual([]);
    expect(sent!.event).toMatchObject({
      type: 'sale.refunded',
      data: { sale_id: saleId, transaction_id: 'pi_refund_full', amount_cents: 10_000, commission_status: 'reversed', reason: 'refund' },
    });

    // Redelivered: the event id is remembered; nothing new, no second webhook.
    const again = await deliver(h, secret, event);
    expect(again.body).toEqual({ received: true, outcome: 'duplicate', sale_id: saleId });
    // The same refund reported to the refund endpoint changes nothing either.
    const endpoint = await h.request('POST', '/api/v1/track/refund', { key: s.key, json: { transaction_id: 'pi_refund_full' } });
    expect(endpoint.body).toMatchObject({ already_refunded: true, commission_status: 'reversed' });
    await sleep(700);
    expect(r.received).toHaveLength(1);
    expect((await figures()).commissions.reversed_cents).toEqual({ USD: 2_000 });
  });

  it('a partial refund changes nothing (ignored, partial_refund); the refund completing the charge reverses the sale', async () => {
    const saleId = await paidCheckout('pi_refund_partial', { account });
    const chargeId = 'ch_refund_partial';
    const partial = chargeRefunded({
      account,
      created: await nowSeconds(h),
      paymentIntent: 'pi_refund_partial',
      chargeId,
      amount: 10_000,
      amountRefunded: 2_500,
    });
    expect(partial.data.object.refunded).toBe(false);
    expect((await deliver(h, secret, partial)).body).toEqual({ received: true, outcome: 'ignored', reason: 'partial_refund' });
    expect(await commission()).toMatchObject({ amount_cents: 2_000, status: 'pending' });
    expect((await figures()).commissions.due_cents).toEqual({ USD: 2_000 });

    const rest = chargeRefunded({
      account,
      created: await nowSeconds(h),
      paymentIntent: 'pi_refund_partial',
      chargeId,
      amount: 10_000,
      amountRefunded: 10_000,
    });
    expect((await deliver(h, secret, rest)).body).toEqual({ received: true, outcome: 'recorded', sale_id: saleId });
    expect(await commission()).toMatchObject({ amount_cents: 2_000, status: 'reversed' });
  });

  it('a sale refunded before through the refund endpoint answers duplicate and sends nothing more', async () => {
    const saleId = await paidCheckout('pi_refund_first', { account });
    const first = await h.request('POST', '/api/v1/track/refund', {
      key: s.key,
      json: { transaction_id: 'pi_refund_first', reason: 'chargeback' },
    });
    expect(first.body).toMatchObject({ already_refunded: false });
    await waitFor('sale.refunded delivered', () => r.received.length >= 1);
    const res = await deliver(
      h,
      secret,
      chargeRefunded({ account, created: await nowSeconds(h), paymentIntent: 'pi_refund_first', amount: 10_000 }),
    );
    expect(res.body).toEqual({ received: true, outcome: 'duplicate', sale_id: saleId });
    const sale = await h.store.db.selectFrom('sales').selectAll().where('id', '=', saleId).executeTakeFirstOrThrow();
    expect(sale.refund_reason).toBe('chargeback');
    await sleep(700);
    expect(r.received).toHaveLength(1);
  });

  it("a subscription invoice's sale is found by the charge's PaymentIntent", async () => {
    const paid = await deliver(
      h,
      secret,
      invoicePaymentSucceeded({
        account,
        created: await nowSeconds(h),
        shape: 'previous',
        paymentIntent: 'pi_refund_invoice',
        amountPaid: 1_500,
        metadata: svcMetadata(s.program.id, clickId, customerKey),
      }),
    );
    expect(paid.body).toMatchObject({ outcome: 'recorded' });
    const res = await deliver(
      h,
      secret,
      chargeRefunded({ account, created: await nowSeconds(h), paymentIntent: 'pi_refund_invoice', amount: 1_500 }),
    );
    expect(res.body).toEqual({ received: true, outcome: 'recorded', sale_id: paid.body.sale_id });
    expect(await commission()).toMatchObject({ amount_cents: 300, status: 'reversed' });
  });

  it('a charge of no recorded sale answers ignored sale_not_found and is not remembered', async () => {
    await paidCheckout('pi_refund_known', { account });
    const before = await processorEventCount(h);
    const res = await deliver(h, secret, chargeRefunded({ account, created: await nowSeconds(h), paymentIntent: 'pi_refund_unknown' }));
    expect(res.body).toEqual({ received: true, outcome: 'ignored', reason: 'sale_not_found' });
    expect(await processorEventCount(h)).toBe(before);
    expect(await commission()).toMatchObject({ status: 'pending' });
  });

  it("a Connect refund never reaches another program's sale, even with the sale's PaymentIntent", async () => {
    await paidCheckout('pi_refund_victim', { account });
    const other = await h.control.createProgram({});
    const otherAccount = `acct_other${sequence}`;
    await h.control.connectProcessor({ program_id: other.id, account: otherAccount });
    const res = await deliver(
      h,
      secret,
      chargeRefunded({ account: otherAccount, created: await nowSeconds(h), paymentIntent: 'pi_refund_victim', amount: 10_000 }),
    );
    expect(res.body).toEqual({ received: true, outcome: 'ignored', reason: 'sale_not_found' });
    expect(await commission()).toMatchObject({ status: 'pending' });
  });

  it("the operator's own account (no account): found by the PaymentIntent, and only in the program its program_id names", async () => {
    const saleId = await paidCheckout('pi_refund_own');
    const created = await nowSeconds(h);
    const elsewhere = await h.control.createProgram({});
    const wrong = await deliver(
      h,
      secret,
      chargeRefunded({
        account: undefined,
        created,
        paymentIntent: 'pi_refund_own',
        amount: 10_000,
        metadata: { program_id: String(elsewhere.id) },
      }),
    );
    expect(wrong.body).toEqual({ received: true, outcome: 'ignored', reason: 'sale_not_found' });
    expect(await commission()).toMatchObject({ status: 'pending' });
    const res = await deliver(h, secret, chargeRefunded({ account: undefined, created, paymentIntent: 'pi_refund_own', amount: 10_000 }));
    expect(res.body).toEqual({ received: true, outcome: 'recorded', sale_id: saleId });
    expect(await commission()).toMatchObject({ status: 'reversed' });
  });

  it('a charge refunded in full twice at once reverses the commission once', async () => {
    const saleId = await paidCheckout('pi_refund_race', { account });
    const created = await nowSeconds(h);
    const events = [1, 2].map(() => chargeRefunded({ account, created, paymentIntent: 'pi_refund_race', amount: 10_000 }));
    const answers = await Promise.all(events.map((event) => deliver(h, secret, event)));
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(['duplicate', 'recorded']);
    expect(answers.every((a) => a.body.sale_id === saleId)).toBe(true);
    expect((await figures()).commissions.reversed_cents).toEqual({ USD: 2_000 });
    expect(await readMetrics(h.store.db, s.program.id)).toMatchObject({ revenue_cents: { USD: 0 }, commissions_cents: { USD: 0 } });
    await waitFor('sale.refunded delivered', () => r.received.length >= 1);
    await sleep(700);
    expect(r.received).toHaveLength(1);
  });
});
