import { readCookie } from './cookie-header';
import { cookieDomainFor } from './domain';

/** spec/rules.md "What the service does", item 8. */
export const clickIdCookie = 'svc_click_id';
/** Unix seconds when `svc_click_id` expires: written by the browser SDK, and here, so the lifetime is never extended. */
export const clickExpiresCookie = 'svc_click_exp';

export interface PersistOptions {
  /** The program's attribution window (the click's `cookie_window_days`). Default 60 (spec/rules.md "Attribution rules"). */
  windowDays?: number;
  /** `Domain` for the cookie; set it to the tracker's `cookieDomain` when you gave it one. See `cookieDomainFor`. */
  cookieDomain?: string;
  /** The current time in ms (tests). */
  now?: number;
}

/** What the helper needs to know of an incoming request, whatever the framework. */
export interface IncomingRequest {
  /** The `Cookie` header. */
  cookie: string | null | undefined;
  /** The host name the browser used (no port). */
  hostname: string;
  /** Whether the browser reached the site over HTTPS (behind a proxy: the forwarded protocol). */
  secure: boolean;
}

/** A valid click id: the characters the service mints, nothing that could break a header. */
const validId = /^[\w.:-]{1,128}$/;

/** A recorded expiry: a positive integer, in Unix seconds. */
const validExpiry = /^[1-9]\d*$/;

/**
 * The `Set-Cookie` values that re-issue the visitor's click cookie from the server (Safari's cap: script-set
 * cookies may be expired within 7 days, spec/rules.md "Limits"). The expiry is the original one (`svc_click_exp`), never
 * extended, and at most `windowDays` from now. Empty when the request has no valid `svc_click_id`, or no
 * `svc_click_exp` in the future: a cookie whose expiry is unknown or past is left to the browser, since
 * re-issuing it would give the click a new window (the cookie lives `cookie_window_days`,
 * spec/rules.md "What the service does", item 8).
 */
export function clickCookieHeaders(request: IncomingRequest, options: PersistOptions = {}): string[] {
  const clickId = readCookie(request.cookie, clickIdCookie);
  const recorded = readCookie(request.cookie, clickExpiresCookie);
  if (!clickId || !validId.test(clickId) || !recorded || !validExpiry.test(recorded)) return [];
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (+recorded <= now) return [];
  const expires = Math.min(+recorded, now + (options.windowDays ?? 60) * 86_400);
  const domain = cookieDomainFor(request.hostname, options.cookieDomain);
  const attributes =
    `; Path=/; Max-Age=${expires - now}; Expires=${new Date(expires * 1000).toUTCString()}` +
    `${domain ? `; Domain=${domain}` : ''}; SameSite=Lax${request.secure ? '; Secure' : ''}`;
  return [`${clickIdCookie}=${clickId}${attributes}`, `${clickExpiresCookie}=${expires}${attributes}`];
}
