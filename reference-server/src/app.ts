import { randomBytes } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { ControllableClock, systemClock, type Clock } from './clock';
import type { OidcConfig, StripeConnectConfig } from './config';
import { serverKeyLoader } from './domain/login/server-key';
import { Faults } from './faults';
import { bodyLimitBytes, registerBodyParsers } from './http/body-parsers';
import { registerErrorHandling } from './http/envelope';
import { lazyChildLogger, loggerOptions, registerRequestLog, type LogOptions } from './http/logging';
import { registerRotationNotices } from './http/program-key';
import { MemoryRateLimitStore, registerRateLimits, type RateLimitStore } from './http/rate-limit';
import type { LimitOverrides } from './http/rate-limit-config';
import { redisRateLimits } from './http/rate-limit-fallback';
import { registerRequestId, requestIdFor } from './http/request-id';
import { keepBuiltInCompilerRules, lazySchemaCompilers } from './http/schema-compilers';
import { requestAccount } from './http/request-account';
import { fastifyTrustProxy, type TrustProxy } from './http/trust-proxy';
import { defaultConnectionLimits, type ConnectionLimits } from './http/connection-limits';
import './http/route-config';
import { registerCrossSiteGuard, registerSecurityHeaders } from './http/security-headers';
import { sessionCookieFor } from './http/session-cookie';
import { openIdProvider } from './identity/openid-provider';
import { outboundWebhooks } from './outbound';
import { registerRoutes } from './routes';
import { builtDocsDir } from './routes/docs-site';
import type { WorkspaceCreators } from './domain/programs/creators';
import type { Services } from './services';
import type { Store } from './store/db';

export interface AppOptions {
  store: Store;
  /** Mount the `/_test/*` control API (never on by default). Also turns the development sign-in on. */
  testControl?: boolean;
  /** The clock every time rule reads; with test control on, a clock the control API can move. */
  clock?: Clock;
  /** `false` turns the spec/rules.md "Limits" rate limits off (benchmarks only: `SVC_RATE_LIMITS=off`). */
  rateLimits?: boolean;
  /** Per-minute limits replacing spec/rules.md "Limits"' for the buckets named (`SVC_RATE_LIMITS=lead=300,…`). */
  rateLimitOverrides?: LimitOverrides;
  /** Counter store for rate limits; memory by default (or Redis with `redis`). */
  rateLimitStore?: RateLimitStore;
  /** Count rate limits in this Redis, shared across servers with the same prefix; memory while it is unreachable. */
  redis?: { url: string; prefix?: string | undefined };
  /** Base URL the server is reached at (links it prints and serves; the cookie's `Secure` and HSTS follow it). */
  publicUrl?: string;
  /**
   * The docs site: `url` (`SVC_DOCS_URL`) when it lives elsewhere, and `/docs/*` redirects there; else `dir`, the built
   * site served at `/docs/` (default: the repository's `docs/.vitepress/dist`, written by `pnpm docs:build`).
   */
  docs?: { url?: string; dir?: string };
  /** OpenID Connect sign-in (`SVC_OIDC_*`); the redirect URI is `${publicUrl}/auth/callback`. */
  oidc?: OidcConfig;
  /** The email-only development sign-in (`SVC_DEV_SIGN_IN=1`); on whenever test control is. */
  devSignIn?: boolean;
  /** A line the development sign-in form shows above the email field (the demo names its accounts). */
  devSignInHint?: string;
  /**
   * Who may create workspaces and programs (`SVC_WORKSPACE_CREATORS`). Absent: anyone with the development sign-in or
   * test control on (today's demo and tests), else only the first account to sign in.
   */
  workspaceCreators?: WorkspaceCreators;
  /** `SVC_SECRET_KEY`; absent: one generated once and kept in the database. */
  secretKey?: string;
  /** `SVC_PROCESSOR_WEBHOOK_SECRET`; with test control and none given, one generated for the process. */
  processorWebhookSecrets?: string[];
  /** "Connect with Stripe" (`SVC_STRIPE_*`); absent: off. */
  stripeConnect?: StripeConnectConfig;
  /** Request logs (pino JSON lines); none when absent. */
  log?: LogOptions;
  /** The proxies in front (a hop count or their addresses; `true` is one hop); none by default. */
  trustProxy?: TrustProxy | boolean;
  /** Slow-client timeouts and the connection cap; `defaultConnectionLimits` when absent. */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Outbound webhooks may go to loopback, private and link-local addresses (`SVC_WEBHOOKS_ALLOW_PRIVATE=1`). Absent:
   * only with test control on.
   */
  webhooksAllowPrivate?: boolean;
  /**
   * How long a server's claim on an outbound webhook delivery lasts (`SVC_WEBHOOK_LEASE_MS`, 30 s by default): after a
   * crash, another server sends the claimed deliveries this long after the claim. Each attempt then times out at a
   * third of it, at most 10 s.
   */
  webhookLeaseMs?: number;
}

/** Builds the Fastify app from options; never listens (server.ts and start.ts do). */
export function buildApp(options: AppOptions): FastifyInstance {
  const log = loggerOptions(options.log);
  const limits = { ...defaultConnectionLimits, ...options.connectionLimits };
  const app = Fastify({
    ...(log ? { logger: log, childLoggerFactory: lazyChildLogger } : {}),
    // Our own one line per request (http/logging.ts) replaces Fastify's two, which log the full URL.
    logController: new LogController({ disableRequestLogging: true }),
    // Node 20 applies `requestTimeout` only when the HTTP server is created with it (`http`); Fastify also assigns
    // its own option afterwards, which must then not reset it to 0 (no timeout).
    // Node checks the deadline every `connectionsCheckingInterval` (30 s by default): a short timeout checks sooner.
    http: {
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, limits.requestTimeoutMs / 4)),
    },
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    bodyLimit: bodyLimitBytes,
    trustProxy: fastifyTrustProxy(options.trustProxy),
    genReqId: requestIdFor,
    requestIdHeader: false,
    // Graceful shutdown: a request already sent on an open connection is served (then the connection closes)
    // instead of answered with Fastify's own 503 body, which is no envelope of the spec; new connections are refused.
    return503OnClosing: false,
    schemaController: lazySchemaCompilers,
  });
  keepBuiltInCompilerRules(app);

  const testClock = options.testControl ? new ControllableClock(options.clock ?? systemClock) : undefined;
  const clock = testClock ?? options.clock ?? systemClock;
  const publicUrl = new URL(options.publicUrl ?? 'http://127.0.0.1:8787').origin;
  const configuredWebhookSecrets = options.processorWebhookSecrets ?? [];
  const services: Services = {
    store: options.store,
    clock,
    ...(testClock ? { testClock } : {}),
    faults: new Faults(),
    rateLimitStore:
      options.rateLimitStore ??
      (options.redis ? redisRateLimits(options.redis.url, { prefix: options.redis.prefix }, app.log) : new MemoryRateLimitStore()),
    publicUrl,
    docs: options.docs?.url
      ? { url: options.docs.url, dir: undefined }
      : { url: `${publicUrl}/docs`, dir: options.docs?.dir ?? builtDocsDir() },
    signIn: {
      identityProvider: options.oidc && openIdProvider({ ...options.oidc, redirectUri: `${publicUrl}/auth/callback` }),
      dev: options.devSignIn === true || options.testControl === true,
      hint: options.devSignInHint,
    },
    workspaceCreators:
      options.workspaceCreators ?? (options.devSignIn === true || options.testControl === true ? 'anyone' : 'first-account'),
    serverKey: serverKeyLoader(options.store, clock, options.secretKey),
    // Test control hands its tests the secret to sign with; a process-wide one stands in when none is configured.
    processorWebhookSecrets:
      configuredWebhookSecrets.length > 0 || !options.testControl
        ? configuredWebhookSecrets
        : [`whsec_${randomBytes(24).toString('base64url')}`],
    stripeConnect: options.stripeConnect,
    sessionCookie: sessionCookieFor(publicUrl),
    webhooks: outboundWebhooks({
      store: options.store,
      clock,
      allowPrivateAddresses: options.webhooksAllowPrivate ?? options.testControl === true,
      serverKey: () => services.serverKey(),
      log: app.log,
      leaseMs: options.webhookLeaseMs,
    }),
  };
  app.decorate('svc', services);
  app.server.maxConnections = limits.maxConnections;

  registerBodyParsers(app);
  registerErrorHandling(app);
  registerRequestId(app);
  if (log) registerRequestLog(app);
  registerSecurityHeaders(app, publicUrl);
  registerCrossSiteGuard(app, publicUrl);
  registerRotationNotices(app);
  if (options.rateLimits !== false)
    registerRateLimits(app, services.rateLimitStore, services.clock, requestAccount(services), options.rateLimitOverrides);
  registerRoutes(app, { testControl: options.testControl === true });
  // The server secret is read (or created) before the first request: no request writes it, and a database that
  // cannot serve it stops the start instead of a sign-in.
  app.addHook('onReady', async () => {
    await services.serverKey();
  });
  // Rate limits in Redis from the first request when Redis is up; never a refused start when it is not.
  app.addHook('onReady', async () => services.rateLimitStore.connect?.());
  // Outbound webhooks: the delivery loop runs while the app does (it needs the server secret, read just above).
  app.addHook('onReady', async () => services.webhooks.dispatcher.start());
  app.addHook('onClose', async () => services.webhooks.dispatcher.stop());
  app.addHook('onClose', async () => services.rateLimitStore.close());
  return app;
}
