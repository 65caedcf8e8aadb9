import { handoffExpiresParam, handoffIdParam, type Handoff } from '../landing/landing';

/** Whether a host is one of the hand-off domains or a subdomain of one (domains in lower case). */
export const matchesDomain = (hostname: string, domains: readonly string[]): boolean =>
  domains.some((domain) => ('.' + hostname).endsWith('.' + domain));

/** A link's query string with the click id and its expiry set (replacing any earlier hand-off values). */
export function decorateSearch(search: string, handoff: Handoff): string {
  const params = new URLSearchParams(search);
  params.set(handoffIdParam, handoff.clickId);
  params.set(handoffExpiresParam, '' + handoff.expires);
  return '?' + params.toString();
}

/** Links are read and written through their URL parts, so a link that is not a URL changes nothing and throws nothing. */
export type LinkParts = Pick<HTMLAnchorElement, 'protocol' | 'hostname' | 'search'>;

/** Adds the click id to a link that points at a hand-off domain over HTTP(S). */
export function decorateLink(link: LinkParts, domains: readonly string[], handoff: Handoff): void {
  if (/^https?:$/.test(link.protocol) && matchesDomain(link.hostname, domains)) link.search = decorateSearch(link.search, handoff);
}
