import { domainCandidates } from './domains';

/**
 * The `document.cookie` assignment for one first-party cookie: `SameSite=Lax`, `Secure` on HTTPS
 * (§What the service does, item 8); host-only when `domain` is empty.
 */
export const cookieString = (name: string, value: string, domain: string | undefined, maxAgeSeconds: number, secure: boolean): string =>
  name +
  '=' +
  encodeURIComponent(value) +
  ';path=/;max-age=' +
  maxAgeSeconds +
  (domain ? ';domain=' + domain : '') +
  ';samesite=lax' +
  (secure ? ';secure' : '');

/** The value of a cookie in a `document.cookie` string, decoded; undefined when absent or malformed. */
export function parseCookie(cookies: string, name: string): string | undefined {
  try {
    const value = ('; ' + cookies).split('; ' + name + '=')[1];
    return value ? decodeURIComponent(value.split(';')[0]!) : undefined;
  } catch {
    return undefined;
  }
}

export const readCookie = (name: string): string | undefined => parseCookie(document.cookie, name);

/**
 * The root domain of the page, asked of the browser itself: a short-lived probe cookie is written on each
 * candidate from the shortest up, and the first that sticks wins (the browser refuses public suffixes).
 * Undefined means host-only (IP address, `localhost`, or nothing stuck).
 */
export function detectRootDomain(hostname: string, secure: boolean): string | undefined {
  for (const domain of domainCandidates(hostname)) {
    document.cookie = cookieString('svc_probe', '1', domain, 9, secure);
    if (readCookie('svc_probe')) {
      document.cookie = cookieString('svc_probe', '', domain, 0, secure);
      return domain;
    }
  }
  return undefined;
}
