import type { ProcessorMetadata } from '@svc/types';

// A type alias, not an interface: Stripe's `MetadataParam` needs the implicit index signature.
/**
 * The checkout metadata the service reads from processor webhooks (spec/rules.md "What the service does", item 7; spec/rules.md "Events"): the
 * spec's `ProcessorMetadata`, with the customer key and the program always written by these helpers. `svc_click_id`
 * stays optional: an unattributed checkout carries none.
 */
export type SvcCheckoutMetadata = ProcessorMetadata & Required<Pick<ProcessorMetadata, 'svc_customer_key' | 'program_id'>>;

export interface CheckoutAttribution {
  /** The visitor's `svc_click_id` cookie, if any. */
  clickId?: string | null | undefined;
  /** The same stable internal user id you send as `customer_key` (spec/rules.md "Attribution rules", "Customer identifier"). */
  customerKey: string;
  programId: number | string;
}

/** Stripe metadata values are strings; an absent click id is left out rather than sent empty (empty unsets a key). */
export function svcMetadata({ clickId, customerKey, programId }: CheckoutAttribution): SvcCheckoutMetadata {
  return {
    ...(clickId ? { svc_click_id: clickId } : {}),
    svc_customer_key: customerKey,
    program_id: String(programId),
  };
}

interface CheckoutParams {
  mode?: string;
  metadata?: Record<string, string | number | null> | '' | null;
  subscription_data?: { metadata?: Record<string, string | number | null> | '' | null };
}

type WithSvc<P> = P & {
  metadata: SvcCheckoutMetadata & Record<string, string | number | null>;
};

/**
 * Adds the svc metadata to Stripe `checkout.sessions.create` params, keeping yours. For `mode: 'subscription'`
 * it is duplicated into `subscription_data.metadata`, so `invoice.payment_succeeded` of every renewal
 * attributes (spec/rules.md "What the service does", item 7).
 *
 * ```ts
 * await stripe.checkout.sessions.create(withSvcMetadata({ mode: 'subscription', line_items, success_url }, attribution));
 * ```
 */
export function withSvcMetadata<P extends CheckoutParams>(params: P, attribution: CheckoutAttribution): WithSvc<P> {
  const metadata = svcMetadata(attribution);
  const merge = (existing: CheckoutParams['metadata']) => ({ ...(existing || {}), ...metadata });
  return {
    ...params,
    metadata: merge(params.metadata),
    ...(params.mode === 'subscription'
      ? { subscription_data: { ...params.subscription_data, metadata: merge(params.subscription_data?.metadata) } }
      : {}),
  };
}

/**
 * The same, as a fragment to spread into the params: `{ ...svcCheckout(attribution, 'subscription') }`.
 * Prefer `withSvcMetadata` when the params already carry `metadata` or `subscription_data`, which a spread would replace.
 */
export function svcCheckout(
  attribution: CheckoutAttribution,
  mode: 'payment' | 'subscription' | 'setup' = 'payment',
): { metadata: SvcCheckoutMetadata; subscription_data?: { metadata: SvcCheckoutMetadata } } {
  const metadata = svcMetadata(attribution);
  return mode === 'subscription' ? { metadata, subscription_data: { metadata } } : { metadata };
}
