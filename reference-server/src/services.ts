import type { Clock, ControllableClock } from './clock';
import type { Faults } from './faults';
import type { RateLimitStore } from './http/rate-limit';
import type { Store } from './store/db';

/** What every route reaches through `app.svc`: the store, the one clock, armed faults, settings. */
export interface Services {
  store: Store;
  clock: Clock;
  /** Present only with test control on: the clock the control API moves. */
  testClock?: ControllableClock;
  faults: Faults;
  rateLimitStore: RateLimitStore;
  /** Public base URL of this server (sign-in links, the dashboard, the tracker script). */
  publicUrl: string;
  /** Secret that signs processor webhooks and id_tokens for this server. */
  secrets: { webhook: string; idToken: string };
}

declare module 'fastify' {
  interface FastifyInstance {
    svc: Services;
  }
}
