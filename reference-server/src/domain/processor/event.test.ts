import { describe, expect, it } from 'vitest';
import { classifyEvent, parseEventEnvelope, type ProcessorEventEnvelope } from './event';

const meta = { svc_click_id: 'clk_1', svc_customer_key: 'user_1', program_id: '7' };

function envelope(type: string, object: Record<string, unknown>): ProcessorEventEnvelope {
  const parsed = parseEventEnvelope({
    id: 'evt_1',
    object: 'event',
    type,
    account: 'acct_1',
    created: 1_700_000_000,
    livemode: false,
    data: { object },
  });
  if (!parsed) throw new Error('fixture is not an event');
  return parsed;
}

const session = (over: Record<string, unknown> = {}) => ({
  id: 'cs_test_1',
  object: 'checkout.session',
  mode: 'payment',
  payment_status: 'paid',
  status: 'complete',
  payment_intent: 'pi_1',
  amount_total: 4900,
  currency: 'usd',
  metadata: meta,
  ...over,
});

const invoice = (over: Record<string, unknown> = {}) => ({
  id: 'in_1',
  object: 'invoice',
  billing_reason: 'subscription_cycle',
  amount_paid: 1500,
  currency: 'eur',
  parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1', metadata: meta } },
  lines: { object: 'list', data: [] },
  metadata: {},
  ...over,
});

describe('parseEventEnvelope', () => {
  it('reads id, type, account, livemode, created (ms) and data.object', () => {
    const e = envelope('invoice.payment_succeeded', invoice());
    expect(e).toMatchObject({
      id: 'evt_1',
      type: 'invoice.payment_succeeded',
      account: 'acct_1',
      livemode: false,
      createdMs: 1_700_000_000_000,
    });
  });

  it('refuses bodies that are not Stripe events', () => {
    for (const body of [
      null,
      [],
      'x',
      {},
      { id: 'evt', type: 't' },
      { id: 'evt', type: 't', data: {} },
      { id: 1, type: 't', data: { object: {} } },
    ]) {
      expect(parseEventEnvelope(body)).toBeUndefined();
    }
  });
});

describe('classifyEvent: checkout.session.completed', () => {
  it('a one-off payment is a sale keyed by its PaymentIntent, currency upper-cased', () => {
    expect(classifyEvent(envelope('checkout.session.completed', session()))).toEqual({
      kind: 'payment',
      payment: {
        transactionId: 'pi_1',
        amountCents: 4900,
        currency: 'USD',
        metadata: { clickId: 'clk_1', customerKey: 'user_1', programId: '7' },
      },
    });
  });

  it('reads an expanded payment_intent object', () => {
    const result = classifyEvent(
      envelope('checkout.session.completed', session({ payment_intent: { id: 'pi_x', object: 'payment_intent' } })),
    );
    expect(result).toMatchObject({ kind: 'payment', payment: { transactionId: 'pi_x' } });
  });

  it('leaves subscription checkouts to the invoice event', () => {
    const sub = session({ mode: 'subscription', payment_intent: null, subscription: 'sub_1' });
    expect(classifyEvent(envelope('checkout.session.completed', sub))).toEqual({ kind: 'ignored', reason: 'subscription_checkout' });
  });

  it('ignores sessions that collected no money', () => {
    for (const over of [
      { payment_status: 'unpaid' },
      { payment_status: 'no_payment_required', amount_total: 0, payment_intent: null },
      { mode: 'setup' },
    ]) {
      expect(classifyEvent(envelope('checkout.session.completed', session(over)))).toEqual({ kind: 'ignored', reason: 'no_payment' });
    }
  });

  it('a session without svc metadata is still a payment (attribution decides later)', () => {
    expect(classifyEvent(envelope('checkout.session.completed', session({ metadata: {} })))).toMatchObject({
      kind: 'payment',
      payment: { metadata: {} },
    });
  });
});

describe('classifyEvent: invoice.payment_succeeded', () => {
  it('reads subscription metadata from parent.subscription_details (current API)', () => {
    expect(classifyEvent(envelope('invoice.payment_succeeded', invoice()))).toEqual({
      kind: 'payment',
      payment: {
        transactionId: 'in_1',
        amountCents: 1500,
        currency: 'EUR',
        metadata: { clickId: 'clk_1', customerKey: 'user_1', programId: '7' },
      },
    });
  });

  it('reads subscription_details.metadata and line-item metadata (previous APIs)', () => {
    const previous = invoice({ parent: null, subscription_details: { metadata: meta } });
    expect(classifyEvent(envelope('invoice.payment_succeeded', previous))).toMatchObject({
      payment: { metadata: { customerKey: 'user_1' } },
    });
    const older = invoice({ parent: undefined, lines: { data: [{ id: 'il_1', type: 'subscription', metadata: meta }] } });
    expect(classifyEvent(envelope('invoice.payment_succeeded', older))).toMatchObject({ payment: { metadata: { clickId: 'clk_1' } } });
  });

  it('takes the PaymentIntent, then payments[].payment.payment_intent, then the charge, then the invoice id', () => {
    const id = (over: Record<string, unknown>) => {
      const result = classifyEvent(envelope('invoice.payment_succeeded', invoice(over)));
      return result.kind === 'payment' ? result.payment.transactionId : undefined;
    };
    expect(id({ payment_intent: 'pi_a', charge: 'ch_a' })).toBe('pi_a');
    expect(id({ payments: { data: [{ payment: { type: 'payment_intent', payment_intent: 'pi_b' } }] }, charge: 'ch_b' })).toBe('pi_b');
    expect(id({ charge: 'ch_c' })).toBe('ch_c');
    expect(id({})).toBe('in_1');
  });

  it('counts first invoices, renewals and other subscription charges; ignores others and trials', () => {
    for (const reason of ['subscription_create', 'subscription_cycle', 'subscription_update']) {
      expect(classifyEvent(envelope('invoice.payment_succeeded', invoice({ billing_reason: reason }))).kind).toBe('payment');
    }
    expect(classifyEvent(envelope('invoice.payment_succeeded', invoice({ billing_reason: 'manual' })))).toEqual({
      kind: 'ignored',
      reason: 'not_subscription_invoice',
    });
    expect(classifyEvent(envelope('invoice.payment_succeeded', invoice({ amount_paid: 0 })))).toEqual({
      kind: 'ignored',
      reason: 'no_payment',
    });
  });
});

describe('classifyEvent: other events', () => {
  it('ignores every event the service does not use', () => {
    for (const type of ['customer.created', 'payment_intent.succeeded', 'invoice.paid', 'checkout.session.expired']) {
      expect(classifyEvent(envelope(type, { id: 'x' }))).toEqual({ kind: 'ignored', reason: 'event_type_not_used' });
    }
  });
});

describe('classifyEvent: charge.refunded', () => {
  const charge = (over: Record<string, unknown> = {}) => ({
    id: 'ch_1',
    object: 'charge',
    amount: 4900,
    amount_refunded: 4900,
    refunded: true,
    payment_intent: 'pi_1',
    currency: 'usd',
    metadata: {},
    ...over,
  });

  it('a full refund names the ids its sale may be recorded under, PaymentIntent first', () => {
    expect(classifyEvent(envelope('charge.refunded', charge({ invoice: 'in_1', metadata: { program_id: '7' } })))).toEqual({
      kind: 'refund',
      refund: { transactionIds: ['pi_1', 'ch_1', 'in_1'], metadata: { programId: '7' } },
    });
    expect(classifyEvent(envelope('charge.refunded', charge({ payment_intent: null })))).toEqual({
      kind: 'refund',
      refund: { transactionIds: ['ch_1'], metadata: {} },
    });
  });

  it('a partial refund is ignored; a charge with nothing refunded is no payment', () => {
    expect(classifyEvent(envelope('charge.refunded', charge({ amount_refunded: 100, refunded: false })))).toEqual({
      kind: 'ignored',
      reason: 'partial_refund',
    });
    expect(classifyEvent(envelope('charge.refunded', charge({ amount_refunded: 0, refunded: false })))).toEqual({
      kind: 'ignored',
      reason: 'no_payment',
    });
  });
});
