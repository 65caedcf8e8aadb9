/**
 * The candidate cookie domains of a host, shortest first: `www.shop.example.test` gives
 * `example.test`, `shop.example.test`, `www.shop.example.test`. The browser refuses a cookie on a public
 * suffix (`co.uk`, `github.io`, `vercel.app`), so the first candidate where a probe cookie sticks is the
 * root domain (spec/rules.md "What the service does", item 8). IP addresses and single-label hosts such as `localhost`
 * take a host-only cookie, so they have no candidate.
 */
export function domainCandidates(hostname: string): string[] {
  const labels = hostname.split('.');
  const candidates: string[] = [];
  if (/^[\d.]+$|:/.test(hostname)) return candidates;
  // From the last two labels up to the whole host name.
  for (let i = labels.length - 1; i--;) candidates.push(labels.slice(i).join('.'));
  return candidates;
}
