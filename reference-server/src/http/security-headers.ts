import helmet from '@fastify/helmet';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';

/**
 * Headers every answer carries (docs/deploying.md, "Hardening"): `nosniff`, no framing, `Referrer-Policy:
 * same-origin` (URLs of the sign-in pages carry states; `no-referrer` would also blank the `Origin` of same-origin
 * posts, which the cross-site check reads), helmet's other defaults, and HSTS when `PUBLIC_URL` is https.
 * Cross-Origin-Resource-Policy stays off: storefronts on other origins call the tracking API, and
 * `/js/svc-tracker.js` sets its own (`cross-origin`, routes/tracker-script.ts).
 *
 * They never change, so they are set from one object by one hook: helmet's global hook ran a middleware per header
 * with Node's `setHeader` on every tracking request (3.5 % of the click route's CPU, BENCHMARKS.md). @fastify/helmet
 * stays for the pages' Content-Security-Policy (`pageSecurity`, per route).
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
  // Encapsulation-free: registered here, it serves the `helmet` option of any route (pageSecurity).
  app.register(helmet, {
    global: false,
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: false,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}

/**
 * The Content-Security-Policy of the dashboard and sign-in pages: their script and stylesheet come from this
 * server only (no inline script or style), forms post here only, and no other site may frame them (clickjacking of
 * "Regenerate key" or "Authorize").
 */
export const pageSecurity: Pick<RouteShorthandOptions, 'helmet'> = {
  helmet: {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
  },
};
