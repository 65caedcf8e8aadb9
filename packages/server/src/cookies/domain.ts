/**
 * Shared-hosting suffixes where each subdomain is a different site: a cookie on the parent would be refused
 * by the browser (Public Suffix List, private section), so these hosts keep host-only cookies.
 */
const sharedHosts = [
  'github.io',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'workers.dev',
  'herokuapp.com',
  'fly.dev',
  'onrender.com',
  'web.app',
  'firebaseapp.com',
  'appspot.com',
  'azurewebsites.net',
  'cloudfront.net',
  'amplifyapp.com',
  'glitch.me',
  'repl.co',
  'ngrok.io',
  'ngrok-free.app',
  'railway.app',
  'deno.dev',
];

/** Second-level labels under a country code that are registries, not sites (`shop.co.uk`, `shop.com.au`). */
const countrySecondLevels = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ne', 'or', 'go', 'ltd', 'plc', 'gv']);

/**
 * The `Domain` attribute for the click cookie, or `undefined` for a host-only cookie.
 *
 * The browser tracker asks the browser for the root domain (a probe cookie, spec/rules.md "What the service does", item 8); a
 * server cannot, so this infers it conservatively, without the whole Public Suffix List:
 * 1. IP addresses, `localhost` and other single-label hosts: host-only.
 * 2. `cookieDomain` given: used when the host is it or a subdomain of it, else host-only.
 * 3. A known shared-hosting suffix (`*.vercel.app`, `*.github.io`...): host-only.
 * 4. Otherwise the last two labels (`www.shop.com` → `shop.com`), or three under a country-code registry
 *    (`www.shop.co.uk` → `shop.co.uk`).
 * Set `cookieDomain` whenever the tracker was given one, so both write the same cookie.
 */
export function cookieDomainFor(hostname: string, cookieDomain?: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (!host.includes('.') || /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[')) return undefined;
  if (cookieDomain) {
    const domain = cookieDomain.toLowerCase().replace(/^\./, '');
    return host === domain || host.endsWith(`.${domain}`) ? domain : undefined;
  }
  if (sharedHosts.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return undefined;
  const labels = host.split('.');
  const [secondLevel, topLevel] = labels.slice(-2) as [string, string];
  const take = topLevel.length === 2 && countrySecondLevels.has(secondLevel) ? 3 : 2;
  return labels.length >= take ? labels.slice(-take).join('.') : undefined;
}
