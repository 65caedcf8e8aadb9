import type { ClickResponse, LeadResponse, leadStatusCode, LinkDisabledError, PlatformError, RateLimitedError } from '@svc/types';

/** A request that was not sent: no `aff` on the page, or consent not given yet. */
export interface Skipped {
  ok: false;
  skipped: 'no_aff' | 'consent_pending';
}

/**
 * A request the service refused or that never arrived. `status` is the HTTP status, 0 when the network failed.
 * `error` is the envelope's `error` as sent (spec/rules.md "Errors", "Client guidance": read `code` first, then `message`).
 */
export interface Failed {
  ok: false;
  status: number;
  error: PlatformError['error'] | LinkDisabledError['error'] | RateLimitedError['error'] | { code?: undefined; message: string };
}

export type ClickResult = { ok: true; response: ClickResponse } | Skipped | Failed;

/**
 * `alreadyLead`: the service answered 400 `Customer status cannot be updated to lead` (a retried or repeated
 * signup), which the spec calls usually safe to ignore: the customer is a lead either way.
 */
export type SignupResult = { ok: true; response: LeadResponse; alreadyLead?: true } | Skipped | Failed;

/**
 * `error.details.code` of the 400 `Customer status cannot be updated to lead…` (spec/openapi.yaml,
 * PlatformErrorDetails): decided by code, never by the message. A literal, so the catalogue stays out of the bundle.
 */
const customerStatus: typeof leadStatusCode = 'customer_status';

/** The result of an answer from any of the spec's envelopes (platform, typed, the click 410). */
export function toResult<T>([status, body]: [number, unknown]): { ok: true; response: T } | Failed {
  return status === 200
    ? { ok: true, response: body as T }
    : { ok: false, status, error: ((body as Failed | undefined) && (body as Failed).error) || { message: 'HTTP ' + status } };
}

export function toSignupResult(answer: [number, unknown]): SignupResult {
  const result = toResult<LeadResponse>(answer);
  return !result.ok && result.status === 400 && (result.error as PlatformError['error']).details?.code === customerStatus
    ? { ok: true, response: { success: true }, alreadyLead: true }
    : result;
}
