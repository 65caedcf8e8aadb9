import helmet from '@fastify/helmet';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';

/**
 * Headers every answer carries (docs/deploying.md, "Hardening"), through @fastify/helmet: `nosniff`, no framing,
 * `Referrer-Policy: same-origin` (URLs of the sign-in pages carry states; `no-referrer` would also blank the
 * `Origin` of same-origin posts, which the cross-site check reads), and HSTS when `PUBLIC_URL` is https.
 * Cross-Origin-Resource-Policy stays off: storefronts on other origins call the tracking API, and
 * `/js/svc-tracker.js` sets its own (`cross-origin`, routes/tracker-script.ts).
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const https = new URL(publicUrl).protocol === 'https:';
  // @fastify/helmet is encapsulation-free: registered here, its hooks cover every route.
  app.register(helmet, {
    global: true,
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
