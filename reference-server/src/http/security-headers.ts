import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { fail } from '../errors/service-error';

/**
 * The security headers of docs/deploying.md, "Hardening": those every answer and every page carries, and those a
 * browser sends that the cross-site guard reads (`Origin`, `Sec-Fetch-Site`).
 */

/**
 * Headers every answer carries (docs/deploying.md, "Hardening"): `nosniff`, no framing, `Referrer-Policy:
 * same-origin` (URLs of the sign-in pages carry states; `no-referrer` would also blank the `Origin` of same-origin
 * posts, which the cross-site check reads), the rest of helmet's defaults, and HSTS when `PUBLIC_URL` is https.
 * Cross-Origin-Resource-Policy stays off: storefronts on other origins call the tracking API, and
 * `/js/svc-tracker.js` sets its own (`cross-origin`, routes/tracker-script.ts).
 *
 * They never change, so they are set from one object by one hook, not a middleware per header with Node's
 * `setHeader` on every tracking request (as helmet's global hook does). The pages add
 * their Content-Security-Policy (`pageSecurity`), a fixed string too.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const https = new URL(publicUrl).protocol === 'https:';
  const headers: Record<string, string> = {
    'cross-origin-opener-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'same-origin',
    ...(https ? { 'strict-transport-security': 'max-age=31536000' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * The Content-Security-Policy of the dashboard and sign-in pages: their script and stylesheet come from this
 * server only (no inline script or style), forms post here only, and no other site may frame them (clickjacking of
 * "Regenerate key" or "Authorize").
 */
const pageContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join(';');

/** Route options of a page (the dashboard, sign-in): its Content-Security-Policy, beside the headers of every answer. */
export const pageSecurity: Pick<RouteShorthandOptions, 'onRequest'> = {
  onRequest: (_request, reply, done) => {
    reply.header('content-security-policy', pageContentSecurityPolicy);
    done();
  },
};

/**
 * Routes that no browser session reaches: the key-authenticated and anonymous API (`/api/v1/…`, called cross-site
 * by storefronts and backends by design) and test control. Every other route is guarded, so a new cookie route is
 * covered without being listed.
 */
const unguardedPrefixes = ['/api/v1/', '/_test/'];
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard (docs/deploying.md, "Hardening"): a state-changing request to the dashboard or
 * sign-in routes is refused (403) when its `Origin` is not `PUBLIC_URL`'s origin or its `Sec-Fetch-Site` is
 * `cross-site`. Browsers send at least one of the two on every such request; a request with neither is not from a
 * browser (a script, a CI client) and carries no ambient cookie it did not set itself, so it passes.
 */
export function registerCrossSiteGuard(app: FastifyInstance, publicUrl: string): void {
  const sameOrigin = ownOrigin(publicUrl);
  // A callback hook, not an async one: every request runs it (http/request-id.ts says why).
  app.addHook('onRequest', (request, _reply, done) => {
    // The matched route's pattern, never the raw URL: the router decodes `%xx`, so `/api/%64ashboard/…` reaches
    // the dashboard while its raw URL starts with no dashboard prefix. No route matched: nothing can change.
    const route = request.routeOptions.url;
    if (safeMethods.has(request.method) || route === undefined || unguardedPrefixes.some((prefix) => route.startsWith(prefix)))
      return done();
    const origin = request.headers.origin;
    const crossSite = (origin !== undefined && !sameOrigin(origin)) || request.headers['sec-fetch-site'] === 'cross-site';
    done(crossSite ? fail('crossSiteRefused') : undefined);
  });
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * `PUBLIC_URL`'s origin. A loopback `PUBLIC_URL` (the demo, local development) also accepts the other loopback
 * names on the same scheme and port: `http://localhost:8787` and `http://127.0.0.1:8787` are the same machine,
 * and no other site can serve a page from either.
 */
function ownOrigin(publicUrl: string): (origin: string) => boolean {
  const own = new URL(publicUrl);
  return (origin) => {
    if (origin === own.origin) return true;
    if (!loopbackHosts.has(own.hostname)) return false;
    try {
      const given = new URL(origin);
      return loopbackHosts.has(given.hostname) && given.protocol === own.protocol && given.port === own.port;
    } catch {
      return false;
    }
  };
}
