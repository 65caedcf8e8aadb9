import { readCookie } from '../cookie/cookie';
import { handoffExpiresParam, handoffIdParam } from '../landing/landing';
import { decorateLink } from './decorate';

/**
 * Decorates links to the hand-off domains with the click id just before the browser follows them, so links the
 * page adds later are covered too. Nothing is added without a live click cookie or while consent is pending.
 */
export function watchLinks(domains: readonly string[], granted: () => boolean): void {
  const decorate = (event: Event) => {
    const target = event.target as Element;
    const link = target.closest && target.closest<HTMLAnchorElement>('a[href]');
    const clickId = readCookie(handoffIdParam);
    const expires = +readCookie(handoffExpiresParam)!;
    if (link && clickId && granted() && expires * 1000 > Date.now()) decorateLink(link, domains, { clickId, expires });
  };
  document.addEventListener('mousedown', decorate, true);
  document.addEventListener('click', decorate, true);
}
