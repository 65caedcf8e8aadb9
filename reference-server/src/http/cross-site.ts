import type { FastifyInstance } from 'fastify';
import { fail } from '../errors/service-error';

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
