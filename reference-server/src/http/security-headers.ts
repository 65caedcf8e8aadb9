import type { FastifyInstance, RouteShorthandOptions } from 'fastify';

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
