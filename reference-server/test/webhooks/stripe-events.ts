import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Harness, HarnessResponse } from '../harness';

/**
 * Stripe events in their real shapes (the members Stripe sends, not only those the service reads), built
 * for the webhook tests and signed with the official `stripe` package.
 */
const stripe = new Stripe('sk_test_x');
const rand = (prefix: string) => `${prefix}_test_${randomBytes(8).toString('hex')}`;

export type Metadata = Record<string, string>;

export interface EventOptions {
  /** The Stripe Connect account; absent: an event of the operator's own account. */
  account: string | undefined;
  /** Unix seconds; the event's `created`. */
  created: number;
  id?: string;
}

function event(type: string, object: Record<string, unknown>, { account, created, id }: EventOptions) {
  return {
    id: id ?? rand('evt'),
    object: 'event',
    ...(account === undefined ? {} : { account }),
    api_version: '2025-03-31.basil',
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: rand('req'), idempotency_key: randomBytes(16).toString('hex') },
    type,
  };
}

export interface CheckoutOptions extends EventOptions {
  mode?: 'payment' | 'subscription';
  paymentIntent?: string;
  amountTotal?: number;
  currency?: string;
  metadata?: Metadata;
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  /** The email Stripe collected (`customer_details.email`); buyer@example.com by default. */
  customerEmail?: string;
}

/** `checkout.session.completed`: a one-off payment (`mode: payment`) or a subscription checkout. */
export function checkoutSessionCompleted(options: CheckoutOptions) {
  const mode = options.mode ?? 'payment';
  const amount = options.amountTotal ?? 4900;
  const session = {
    id: rand('cs'),
    object: 'checkout.session',
    adaptive_pricing: { enabled: true },
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: null,
    cancel_url: 'https://shop.example/cancel',
    client_reference_id: null,
    created: options.created - 60,
    currency: options.currency ?? 'usd',
    customer: rand('cus'),
    customer_creation: 'always',
    customer_details: { email: options.customerEmail ?? 'buyer@example.com', name: 'Buyer', phone: null, tax_exempt: 'none', tax_ids: [] },
    customer_email: null,
    expires_at: options.created + 86_340,
    invoice: mode === 'subscription' ? rand('in') : null,
    livemode: false,
    locale: null,
    metadata: options.metadata ?? {},
    mode,
    payment_intent: mode === 'payment' ? (options.paymentIntent ?? rand('pi')) : null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_types: ['card'],
    payment_status: options.paymentStatus ?? 'paid',
    status: 'complete',
    submit_type: null,
    subscription: mode === 'subscription' ? rand('sub') : null,
    success_url: 'https://shop.example/thanks',
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: null,
  };
  return event('checkout.session.completed', session, options);
}

/**
 * Where the invoice carries the subscription's metadata, by Stripe API version: `current` (2025-03-31 and later:
 * `parent.subscription_details.metadata`, no `payment_intent` on the invoice), `previous` (2022-11-15 to
 * 2025-02-24: `subscription_details.metadata`, `payment_intent`, `charge`), `lines` (older: only the
 * subscription line items' `metadata`).
 */
export type InvoiceShape = 'current' | 'previous' | 'lines';

export interface InvoiceOptions extends EventOptions {
  shape?: InvoiceShape;
  billingReason?: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual';
  amountPaid?: number;
  currency?: string;
  /** The subscription's metadata. */
  metadata?: Metadata;
  invoiceId?: string;
  paymentIntent?: string;
  subscription?: string;
}

/** `invoice.payment_succeeded` for a subscription invoice (first or renewal). */
export function invoicePaymentSucceeded(options: InvoiceOptions) {
  const shape = options.shape ?? 'current';
  const amount = options.amountPaid ?? 1500;
  const currency = options.currency ?? 'usd';
  const subscription = options.subscription ?? rand('sub');
  const metadata = options.metadata ?? {};
  const period = { start: options.created, end: options.created + 30 * 86_400 };
  const line = {
    id: rand('il'),
    object: 'line_item',
    amount,
    currency,
    description: '1 × Pro (at $15.00 / month)',
    discountable: true,
    livemode: false,
    metadata: shape === 'current' ? {} : metadata,
    period,
    quantity: 1,
    ...(shape === 'current'
      ? {
          parent: {
            type: 'subscription_item_details',
            invoice_item_details: null,
            subscription_item_details: { invoice_item: null, proration: false, subscription, subscription_item: rand('si') },
          },
          pricing: {
            type: 'price_details',
            price_details: { price: rand('price'), product: rand('prod') },
            unit_amount_decimal: String(amount),
          },
        }
      : {
          type: 'subscription',
          subscription,
          subscription_item: rand('si'),
          proration: false,
          price: { id: rand('price'), object: 'price' },
        }),
  };
  const invoice: Record<string, unknown> = {
    id: options.invoiceId ?? rand('in'),
    object: 'invoice',
    account_country: 'US',
    account_name: 'Shop',
    amount_due: amount,
    amount_paid: amount,
    amount_remaining: 0,
    attempt_count: 1,
    attempted: true,
    billing_reason: options.billingReason ?? 'subscription_create',
    collection_method: 'charge_automatically',
    created: options.created,
    currency,
    customer: rand('cus'),
    customer_email: 'buyer@example.com',
    hosted_invoice_url: 'https://invoice.stripe.com/i/test',
    lines: { object: 'list', data: [line], has_more: false, total_count: 1, url: '/v1/invoices/in/lines' },
    livemode: false,
    metadata: {},
    number: 'ABCD-0001',
    paid: true,
    period_end: period.start,
    period_start: period.start,
    status: 'paid',
    status_transitions: { finalized_at: options.created, marked_uncollectible_at: null, paid_at: options.created, voided_at: null },
    subtotal: amount,
    total: amount,
  };
  if (shape === 'current') {
    invoice.parent = { type: 'subscription_details', quote_details: null, subscription_details: { metadata, subscription } };
  } else {
    invoice.subscription = subscription;
    invoice.payment_intent = options.paymentIntent ?? rand('pi');
    invoice.charge = rand('ch');
    if (shape === 'previous') invoice.subscription_details = { metadata };
  }
  return event('invoice.payment_succeeded', invoice, options);
}

export interface ChargeRefundedOptions extends EventOptions {
  /** The PaymentIntent the charge belongs to (null: a charge made without one). */
  paymentIntent: string | null;
  amount?: number;
  /** Default the whole amount. */
  amountRefunded?: number;
  currency?: string;
  /** The charge's own metadata (Stripe copies the PaymentIntent's there, not the checkout session's). */
  metadata?: Metadata;
  chargeId?: string;
}

/** `charge.refunded`: `refunded` is true only once the whole amount is refunded (Stripe's Charge object). */
export function chargeRefunded(options: ChargeRefundedOptions) {
  const amount = options.amount ?? 4900;
  const amountRefunded = options.amountRefunded ?? amount;
  const charge = {
    id: options.chargeId ?? rand('ch'),
    object: 'charge',
    amount,
    amount_captured: amount,
    amount_refunded: amountRefunded,
    balance_transaction: rand('txn'),
    billing_details: { address: null, email: 'buyer@example.com', name: 'Buyer', phone: null },
    captured: true,
    created: options.created - 3_600,
    currency: options.currency ?? 'usd',
    customer: rand('cus'),
    description: null,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: options.metadata ?? {},
    outcome: {
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: true,
    payment_intent: options.paymentIntent,
    payment_method: rand('pm'),
    receipt_url: 'https://pay.stripe.com/receipts/test',
    refunded: amountRefunded === amount,
    status: 'succeeded',
  };
  return event('charge.refunded', charge, options);
}

/** Any other Stripe event (the service ignores it). */
export function otherEvent(type: string, options: EventOptions) {
  return event(type, { id: rand('obj'), object: type.split('.')[0] }, options);
}

export interface SendOptions {
  /** Signing time (unix seconds); default the event's `created`. */
  timestamp?: number;
  secret?: string;
  /** Replaces the signature header (or removes it with `null`). */
  signature?: string | null;
}

/** Sends an event as Stripe does: pretty-printed JSON body, `Stripe-Signature` over the exact bytes. */
export function deliver(h: Harness, secret: string, stripeEvent: { created: number }, options: SendOptions = {}): Promise<HarnessResponse> {
  const payload = JSON.stringify(stripeEvent, null, 2);
  const signature =
    options.signature === undefined
      ? stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? secret,
          timestamp: options.timestamp ?? stripeEvent.created,
        })
      : options.signature;
  return h.request('POST', '/api/v1/webhooks/processor', {
    raw: payload,
    contentType: 'application/json; charset=utf-8',
    headers: signature === null ? {} : { 'stripe-signature': signature },
  });
}

/** A `Stripe-Signature` header for an exact payload, made by the official package. */
export function signPayload(payload: string, secret: string, timestamp: number): string {
  return stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
