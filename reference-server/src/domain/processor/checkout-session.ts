import type { EventClassification } from './event';
import { asNonNegativeInteger, asObject, asRefId, asString, type JsonObject } from './json';
import { readSvcMetadata } from './metadata';

/**
 * `checkout.session.completed` (spec/rules.md "What the service does", item 7): a one-off payment (`mode: payment`) is a
 * sale identified by its PaymentIntent. Subscription checkouts are deliberately left to the invoice event
 * (spec/rules.md "States and transitions"), so the first payment is not counted twice. A session that collected no money
 * (`payment_status` other than `paid`, e.g. delayed methods still `unpaid`, or a zero total) is ignored.
 */
export function classifyCheckoutSession(session: JsonObject): EventClassification {
  const mode = asString(session.mode);
  if (mode === 'subscription') return { kind: 'ignored', reason: 'subscription_checkout' };
  if (mode !== 'payment') return { kind: 'ignored', reason: 'no_payment' };
  const transactionId = asRefId(session.payment_intent);
  const amountCents = asNonNegativeInteger(session.amount_total);
  const currency = asString(session.currency);
  if (session.payment_status !== 'paid' || !transactionId || !amountCents || !currency) {
    return { kind: 'ignored', reason: 'no_payment' };
  }
  const customerEmail = asString(asObject(session.customer_details)?.email) ?? asString(session.customer_email);
  return {
    kind: 'payment',
    payment: {
      transactionId,
      amountCents,
      currency: currency.toUpperCase(),
      metadata: readSvcMetadata(session.metadata),
      ...(customerEmail === undefined ? {} : { customerEmail }),
    },
  };
}
