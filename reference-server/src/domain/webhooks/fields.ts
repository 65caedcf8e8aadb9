import { isIP } from 'node:net';
import { webhookEventTypes, type WebhookEventType } from '@svc/types';
import { fail } from '../../errors/service-error';
import { isPublicAddress } from './address';

/** The endpoint fields a member sends (spec/openapi.yaml, `WebhookEndpointCreateRequest`); each check names its field. */

export const maxUrlLength = 2048;

/**
 * An absolute http(s) URL without credentials, normalised. With the address guard on, a host written as an IP
 * address must be public; host names are resolved and checked at each attempt (`outbound/http-sender.ts`).
 */
export function endpointUrl(value: unknown, guard: { allowPrivateAddresses: boolean }): string {
  if (typeof value !== 'string' || value.length > maxUrlLength || value.includes('\0')) throw fail('webhookEndpointUrlInvalid');
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw fail('webhookEndpointUrlInvalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.username !== '' || url.password !== '') {
    throw fail('webhookEndpointUrlInvalid');
  }
  if (url.href.length > maxUrlLength) throw fail('webhookEndpointUrlInvalid');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!guard.allowPrivateAddresses && isIP(host) !== 0 && !isPublicAddress(host)) throw fail('webhookEndpointUrlPrivate');
  return url.href;
}

/** The event types an endpoint receives: all when absent, else a non-empty list of known types without repeats. */
export function endpointEvents(value: unknown): WebhookEventType[] {
  if (value === undefined) return [...webhookEventTypes];
  if (!Array.isArray(value) || value.length === 0) throw fail('webhookEndpointEventsInvalid');
  const known = new Set<string>(webhookEventTypes);
  if (!value.every((v) => typeof v === 'string' && known.has(v)) || new Set(value).size !== value.length)
    throw fail('webhookEndpointEventsInvalid');
  // Kept in the spec's order, whatever order was sent.
  return webhookEventTypes.filter((type) => value.includes(type));
}

export function endpointEnabled(value: unknown): boolean {
  if (typeof value !== 'boolean') throw fail('webhookEndpointEnabledInvalid');
  return value;
}

/** The `{endpointId}` of a path: a positive integer. */
export function endpointId(value: unknown): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(id) || (id as number) < 1) throw fail('webhookEndpointIdInvalid');
  return id as number;
}
