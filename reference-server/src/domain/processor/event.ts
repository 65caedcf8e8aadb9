import { classifyChargeRefunded } from './charge-refund';
import { classifyCheckoutSession } from './checkout-session';
import { classifyInvoice } from './invoice';
import { asObject, asString, type JsonObject } from './json';
import type { SvcMetadata } from './metadata';

/** The members of a Stripe event the service reads (spec/rules.md "Events/Inbound"). */
export interface ProcessorEventEnvelope {
  id: string;
  type: string;
  /** The connected account (Stripe Connect) the event belongs to; absent on the operator's own account's events. */
  account: string | undefined;
  livemode: boolean;
  /** `created` (unix seconds) in epoch ms, when present. */
  createdMs: number | undefined;
  object: JsonObject;
}

/** A completed payment read from an event, before attribution. */
export interface ProcessorPayment {
  /** The payment's id (**Decision** in spec/openapi.yaml): the same value a merchant sends as `transaction_id`. */
  transactionId: string;
  amountCents: number;
  /** Upper-cased ISO code as Stripe sent it; may be one the service does not support. */
  currency: string;
  metadata: SvcMetadata;
  /** The paying customer's email as the processor collected it, when it sends one (the self-referral signal). */
  customerEmail?: string;
}

/** A full refund read from a `charge.refunded` event, before its sale is found. */
export interface ProcessorRefund {
  /** The ids the refunded payment's sale may be recorded under, in the order tried. */
  transactionIds: string[];
  metadata: SvcMetadata;
}

/** Why an event changes nothing (WebhookResponse `reason` with outcome `ignored`). */
export type IgnoredReason =
  'event_type_not_used' | 'subscription_checkout' | 'no_payment' | 'not_subscription_invoice' | 'partial_refund' | 'sale_not_found';

export type EventClassification =
  { kind: 'ignored'; reason: IgnoredReason } | { kind: 'payment'; payment: ProcessorPayment } | { kind: 'refund'; refund: ProcessorRefund };

/** The events the service consumes (spec/rules.md "What the service does", item 7). */
export const handledEventTypes = ['checkout.session.completed', 'invoice.payment_succeeded', 'charge.refunded'] as const;

/** Reads the envelope of a parsed event body; undefined when it is not shaped as a Stripe event. */
export function parseEventEnvelope(body: unknown): ProcessorEventEnvelope | undefined {
  const event = asObject(body);
  const id = asString(event?.id);
  const type = asString(event?.type);
  const object = asObject(asObject(event?.data)?.object);
  if (!event || !id || !type || !object) return undefined;
  const created = event.created;
  return {
    id,
    type,
    account: asString(event.account),
    livemode: event.livemode === true,
    createdMs: typeof created === 'number' && Number.isSafeInteger(created) && created > 0 ? created * 1000 : undefined,
    object,
  };
}

/** Which payment, if any, an event reports; every other event is ignored and changes nothing. */
export function classifyEvent(event: ProcessorEventEnvelope): EventClassification {
  switch (event.type) {
    case 'checkout.session.completed':
      return classifyCheckoutSession(event.object);
    case 'invoice.payment_succeeded':
      return classifyInvoice(event.object);
    case 'charge.refunded':
      return classifyChargeRefunded(event.object);
    default:
      return { kind: 'ignored', reason: 'event_type_not_used' };
  }
}
