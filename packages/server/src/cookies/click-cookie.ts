import { readCookie } from './cookie-header';
import { cookieDomainFor } from './domain';

/** §What the service does, item 8. */
export const clickIdCookie = 'svc_click_id';
/** Unix seconds when `svc_click_id` expires: written by the browser SDK, and here, so the lifetime is never extended. */
export const clickExpiresCookie = 'svc_click_exp';

export interface PersistOptions {
  /** The program's attribution window (the click's `cookie_window_days`). Default 60 (§Attribution rules). */
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

/**
 * The `Set-Cookie` values that re-issue the visitor's click cookie from the server (Safari's cap: script-set
 * cookies may be expired within 7 days, §Limits). Empty when the request has no valid `svc_click_id`.
 * The expiry is the original one (`svc_click_exp`), never extended, and at most `windowDays` from now.
 */
export function clickCookieHeaders(request: IncomingRequest, options: PersistOptions = {}): string[] {
  const clickId = readCookie(request.cookie, clickIdCookie);
  if (!clickId || !validId.test(clickId)) return [];
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const window = (options.windowDays ?? 60) * 86_400;
  const recorded = Number(readCookie(request.cookie, clickExpiresCookie));
  const expires = recorded > now ? Math.min(recorded, now + window) : now + window;
  const domain = cookieDomainFor(request.hostname, options.cookieDomain);
  const attributes =
    `; Path=/; Max-Age=${expires - now}; Expires=${new Date(expires * 1000).toUTCString()}` +
    `${domain ? `; Domain=${domain}` : ''}; SameSite=Lax${request.secure ? '; Secure' : ''}`;
  return [`${clickIdCookie}=${clickId}${attributes}`, `${clickExpiresCookie}=${expires}${attributes}`];
}
