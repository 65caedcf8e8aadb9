import { asArray, asObject, asString, type JsonObject } from './json';

/** spec/rules.md "What the service does", item 7: the metadata keys a checkout (or subscription) carries. */
export interface SvcMetadata {
  clickId?: string;
  customerKey?: string;
  /** As sent: Stripe metadata values are strings. */
  programId?: string;
}

/** Reads `svc_click_id`, `svc_customer_key` and `program_id` from one metadata object (blank values are absent). */
export function readSvcMetadata(metadata: unknown): SvcMetadata {
  const object = asObject(metadata);
  if (!object) return {};
  const pick = (key: string) => asString(object[key])?.trim() || undefined;
  const clickId = pick('svc_click_id');
  const customerKey = pick('svc_customer_key');
  const programId = pick('program_id');
  return {
    ...(clickId ? { clickId } : {}),
    ...(customerKey ? { customerKey } : {}),
    ...(programId ? { programId } : {}),
  };
}

export function hasSvcMetadata(metadata: SvcMetadata): boolean {
  return metadata.clickId !== undefined || metadata.customerKey !== undefined || metadata.programId !== undefined;
}

/**
 * spec/rules.md "What the service does", item 7: subscriptions carry the metadata on the subscription, and an invoice
 * shows it in a place that depends on the Stripe API version — `parent.subscription_details.metadata`
 * (2025-03-31 and later), `subscription_details.metadata` (2022-11-15 to 2025-02-24), or the subscription
 * line items' `metadata` (older versions). The invoice's own `metadata` is read last. The first place
 * holding any svc key wins.
 */
export function readInvoiceMetadata(invoice: JsonObject): SvcMetadata {
  const candidates: unknown[] = [
    asObject(asObject(invoice.parent)?.subscription_details)?.metadata,
    asObject(invoice.subscription_details)?.metadata,
    ...asArray(asObject(invoice.lines)?.data).map((line) => asObject(line)?.metadata),
    invoice.metadata,
  ];
  for (const candidate of candidates) {
    const metadata = readSvcMetadata(candidate);
    if (hasSvcMetadata(metadata)) return metadata;
  }
  return {};
}
