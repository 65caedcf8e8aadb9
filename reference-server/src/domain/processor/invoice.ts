import type { EventClassification } from './event';
import { asArray, asNonNegativeInteger, asObject, asRefId, asString, type JsonObject } from './json';
import { readInvoiceMetadata } from './metadata';

/**
 * `invoice.payment_succeeded` (spec/rules.md "What the service does", item 7): every paid subscription invoice — the first
 * (`billing_reason: subscription_create`), renewals (`subscription_cycle`) and other subscription charges
 * (`subscription_update`, `subscription_threshold`) — is a sale. Invoices outside a subscription and
 * invoices that collected nothing (trials: `amount_paid` 0) are ignored.
 */
export function classifyInvoice(invoice: JsonObject): EventClassification {
  const billingReason = asString(invoice.billing_reason) ?? '';
  if (!billingReason.startsWith('subscription')) return { kind: 'ignored', reason: 'not_subscription_invoice' };
  const amountCents = asNonNegativeInteger(invoice.amount_paid);
  const currency = asString(invoice.currency);
  const transactionId = invoiceTransactionId(invoice);
  if (!amountCents || !currency || !transactionId) return { kind: 'ignored', reason: 'no_payment' };
  return {
    kind: 'payment',
    payment: { transactionId, amountCents, currency: currency.toUpperCase(), metadata: readInvoiceMetadata(invoice) },
  };
}

/**
 * **Decision** (spec/openapi.yaml, processorWebhook): the PaymentIntent id, so a merchant who also reports the
 * payment to the sale endpoint with that id counts it once. Older API versions put it on `payment_intent`;
 * 2025-03-31 and later on `payments.data[].payment.payment_intent` (when included). Then the charge, then
 * the invoice id (an invoice is paid once, so it still names one payment).
 */
export function invoiceTransactionId(invoice: JsonObject): string | undefined {
  const fromPayments = asArray(asObject(invoice.payments)?.data)
    .map((entry) => asRefId(asObject(asObject(entry)?.payment)?.payment_intent))
    .find((id) => id !== undefined);
  return asRefId(invoice.payment_intent) ?? fromPayments ?? asRefId(invoice.charge) ?? asString(invoice.id);
}
