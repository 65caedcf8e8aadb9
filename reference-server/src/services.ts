import type { Clock, ControllableClock } from './clock';
import type { StripeConnectConfig } from './config';
import type { IdentityProvider } from './domain/login/identity-provider';
import type { WorkspaceCreators } from './domain/programs/creators';
import type { Faults } from './faults';
import type { RateLimitStore } from './http/rate-limit';
import type { SessionCookie } from './http/session-cookie';
import type { WebhookDispatcher } from './outbound/dispatcher';
import type { Store } from './store/db';

/** What every route reaches through `app.svc`: the store, the one clock, armed faults, settings. */
export interface Services {
  store: Store;
  clock: Clock;
  /** Present only with test control on: the clock the control API moves. */
  testClock?: ControllableClock;
  faults: Faults;
  rateLimitStore: RateLimitStore;
  /** Public base URL of this server (sign-in links, the dashboard, the tracker script); an origin, no path. */
  publicUrl: string;
  /**
   * The docs site (routes/docs-site.ts): `url`, where readers find it (`SVC_DOCS_URL`, else `${publicUrl}/docs`;
   * every `docs_url` points into it); `dir`, its built files when this server serves them.
   */
  docs: { url: string; dir: string | undefined };
  /** How people sign in (docs/deploying.md, "Sign-in"). */
  signIn: {
    /** The OpenID Connect issuer, when configured. */
    identityProvider: IdentityProvider | undefined;
    /** The email-only development sign-in. */
    dev: boolean;
    /** A line the development sign-in form shows (the demo names its accounts). */
    hint: string | undefined;
  };
  /** Who may create workspaces and programs (`SVC_WORKSPACE_CREATORS`). */
  workspaceCreators: WorkspaceCreators;
  /** The server secret: `SVC_SECRET_KEY`, or the one kept in the database. */
  serverKey: () => Promise<string>;
  /** Stripe endpoint secrets a processor webhook may be signed with; empty: not configured. */
  processorWebhookSecrets: string[];
  /** "Connect with Stripe" (`SVC_STRIPE_*`); absent: not configured, so no connected account can be bound. */
  stripeConnect: StripeConnectConfig | undefined;
  /** The dashboard session cookie's name and attributes, decided from `publicUrl`. */
  sessionCookie: SessionCookie;
  /** Outbound webhooks (spec/openapi.yaml, tag `outbound-webhooks`): the address guard's setting and the delivery loop. */
  webhooks: {
    /** Test control or `SVC_WEBHOOKS_ALLOW_PRIVATE=1`: endpoints may be on loopback and private addresses. */
    allowPrivateAddresses: boolean;
    dispatcher: WebhookDispatcher;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    svc: Services;
  }
}
