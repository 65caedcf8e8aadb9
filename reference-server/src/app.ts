import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { ControllableClock, systemClock, type Clock } from './clock';
import { Faults } from './faults';
import { bodyLimitBytes, registerBodyParsers } from './http/body-parsers';
import { registerErrorHandling } from './http/envelope';
import { registerRotationNotices } from './http/program-key';
import { MemoryRateLimitStore, registerRateLimits, type RateLimitStore } from './http/rate-limit';
import { registerRequestId, requestIdFor } from './http/request-id';
import './http/route-config';
import { registerRoutes } from './routes';
import type { Services } from './services';
import type { Store } from './store/db';

export interface AppOptions {
  store: Store;
  /** Mount the `/_test/*` control API (never on by default). */
  testControl?: boolean;
  /** The clock every time rule reads; with test control on, a clock the control API can move. */
  clock?: Clock;
  /** `false` turns the §Limits rate limits off (benchmarks only: `SVC_RATE_LIMITS=off`). */
  rateLimits?: boolean;
  /** Counter store for rate limits; memory by default, Redis to share limits across processes. */
  rateLimitStore?: RateLimitStore;
  /** Base URL the server is reached at (links it prints and serves). */
  publicUrl?: string;
  /** Secrets that sign webhooks and id_tokens; random per process when absent. */
  secrets?: Partial<Services['secrets']>;
  logger?: boolean;
  trustProxy?: boolean;
}

/** Builds the Fastify app from options; never listens (server.ts and start.ts do). */
export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: bodyLimitBytes,
    trustProxy: options.trustProxy ?? false,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // Graceful shutdown: a request already sent on an open connection is served (then the connection closes)
    // instead of answered with Fastify's own 503 body, which is no envelope of the spec; new connections are refused.
    return503OnClosing: false,
  });

  const testClock = options.testControl ? new ControllableClock(options.clock ?? systemClock) : undefined;
  const services: Services = {
    store: options.store,
    clock: testClock ?? options.clock ?? systemClock,
    ...(testClock ? { testClock } : {}),
    faults: new Faults(),
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    publicUrl: options.publicUrl ?? 'http://127.0.0.1:8787',
    secrets: {
      webhook: options.secrets?.webhook ?? `whsec_${randomBytes(24).toString('base64url')}`,
      idToken: options.secrets?.idToken ?? randomBytes(32).toString('base64url'),
    },
  };
  app.decorate('svc', services);

  registerBodyParsers(app);
  registerErrorHandling(app);
  registerRequestId(app);
  registerRotationNotices(app);
  if (options.rateLimits !== false) registerRateLimits(app, services.rateLimitStore, services.clock);
  registerRoutes(app, { testControl: options.testControl === true });
  app.addHook('onClose', async () => services.rateLimitStore.close());
  return app;
}
