import Cookies from 'js-cookie';
import { domainCandidates } from './domains';

/**
 * Writes a first-party cookie through js-cookie: path `/`, `SameSite=Lax`, `Secure` on HTTPS
 * (spec/rules.md "What the service does", item 8), host-only when `domain` is empty, expiring at `expires` (Unix seconds).
 */
export function writeCookie(name: string, value: string, domain: string | undefined, expires: number, secure: boolean): void {
  Cookies.set(name, value, { path: '/', domain, expires: new Date(expires * 1000), sameSite: 'lax', secure });
}

/** The value of a cookie, decoded by js-cookie; undefined when absent. */
export const readCookie = (name: string): string | undefined => Cookies.get(name) || undefined;

/**
 * The root domain of the page, asked of the browser itself: a short-lived probe cookie is written on each
 * candidate from the shortest up, and the first that sticks wins (the browser refuses public suffixes).
 * Undefined means host-only (IP address, `localhost`, or nothing stuck).
 */
export function detectRootDomain(hostname: string, secure: boolean): string | undefined {
  for (const domain of domainCandidates(hostname)) {
    writeCookie('svc_probe', '1', domain, Date.now() / 1000 + 9, secure);
    if (readCookie('svc_probe')) {
      Cookies.remove('svc_probe', { path: '/', domain });
      return domain;
    }
  }
  return undefined;
}
