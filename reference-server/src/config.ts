import { join } from 'node:path';
import { ConfigError } from './config-error';
import { minSecretKeyLength } from './domain/login/server-key';
import { parseWorkspaceCreators, type WorkspaceCreators } from './domain/programs/creators';
import { readConnectionLimits, type ConnectionLimits } from './http/connection-limits';
import { readRateLimits, type LimitOverrides } from './http/rate-limit-config';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy';

/** `SVC_OIDC_*`: the OpenID Connect client the server signs people in with (docs/deploying.md). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * `SVC_OIDC_EMAILS_VERIFIED=1`: the issuer releases only verified emails but sends no `email_verified` claim
   * (some enterprise issuers). Unset, a sign-in whose ID token does not say `email_verified: true` is refused.
   */
  emailsVerified?: boolean;
}

/** `SVC_STRIPE_*`: "Connect with Stripe" (Stripe Connect OAuth), which binds a connected account to a program. */
export interface StripeConnectConfig {
  /** `SVC_STRIPE_CLIENT_ID`: the platform's Connect client id (`ca_…`). */
  clientId: string;
  /** `SVC_STRIPE_SECRET_KEY`: the platform's secret key; authenticates the code exchange. A secret: never logged. */
  secretKey: string;
  /** `SVC_STRIPE_CONNECT_URL`: `https://connect.stripe.com` unless set (tests: a local stand-in). */
  connectUrl: string;
}

/** The environment contract of `svc-reference-server` (docs/deploying.md has the table of every variable). */
export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Key prefix of the Redis rate-limit counters; servers sharing limits share it. */
  redisPrefix: string | undefined;
  testControl: boolean;
  rateLimits: boolean;
  /** `SVC_RATE_LIMITS=lead=300,…`: per-minute limits replacing spec/rules.md "Limits"' for the routes named. */
  rateLimitOverrides: LimitOverrides;
  publicUrl: string;
  /** Hops or addresses of the proxies in front whose `X-Forwarded-For` entries are believed. */
  trustProxy: TrustProxy;
  connectionLimits: ConnectionLimits;
  oidc: OidcConfig | undefined;
  /** `SVC_DEV_SIGN_IN=1`: the email-only development sign-in (anyone can sign in as anyone: never in production). */
  devSignIn: boolean;
  /** `SVC_WORKSPACE_CREATORS`: who may create workspaces; unset: the first account (anyone with dev sign-in or test control). */
  workspaceCreators: WorkspaceCreators | undefined;
  /** `SVC_SECRET_KEY`; unset: one generated once and kept in the database. */
  secretKey: string | undefined;
  /** `SVC_PROCESSOR_WEBHOOK_SECRET`: the Stripe endpoint secrets (`whsec_…`), comma-separated for rotation. */
  processorWebhookSecrets: string[];
  stripeConnect: StripeConnectConfig | undefined;
  /** `LOG_LEVEL` (pino): `info` by default, `silent` turns logs off. */
  logLevel: string;
  /** `SVC_WEBHOOKS_ALLOW_PRIVATE=1`: outbound webhooks may go to loopback, private and link-local addresses. */
  webhooksAllowPrivate: boolean;
  /** `SVC_WEBHOOK_LEASE_MS`: how long a claim on an outbound webhook delivery lasts (at least 1,000 ms). */
  webhookLeaseMs: number | undefined;
  /** `SVC_LOOKUP_CACHE_MAX_AGE_MS` (PostgreSQL; tests): the cached lookups' age limit, 1,000 ms by default. */
  lookupCacheMaxAgeMs: number | undefined;
  /** `SVC_DOCS_URL`: where the docs site lives when not at `${PUBLIC_URL}/docs` (`/docs/*` then redirects there). */
  docsUrl: string | undefined;
}

const oidcVariables = ['SVC_OIDC_ISSUER', 'SVC_OIDC_CLIENT_ID', 'SVC_OIDC_CLIENT_SECRET'] as const;
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and checks the environment; a half-configured setting stops the start with a message naming the variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = readPort(env.PORT);
  const host = env.HOST ?? '127.0.0.1';
  const logLevel = env.LOG_LEVEL || 'info';
  if (!logLevels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}`);
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL ?? `sqlite:${join(process.cwd(), 'svc.sqlite')}`,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    testControl: env.SVC_TEST_CONTROL === '1',
    // `off` (benchmarks only) removes the spec/rules.md "Limits" rate limits; `lead=300,…` sets the named routes' limits.
    ...readRateLimits(env.SVC_RATE_LIMITS),
    publicUrl: readPublicUrl(env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    connectionLimits: readConnectionLimits(env),
    oidc: readOidc(env),
    devSignIn: env.SVC_DEV_SIGN_IN === '1',
    workspaceCreators: parseWorkspaceCreators(env.SVC_WORKSPACE_CREATORS),
    secretKey: readSecretKey(env.SVC_SECRET_KEY),
    processorWebhookSecrets: readWebhookSecrets(env.SVC_PROCESSOR_WEBHOOK_SECRET),
    stripeConnect: readStripeConnect(env),
    logLevel,
    webhooksAllowPrivate: env.SVC_WEBHOOKS_ALLOW_PRIVATE === '1',
    webhookLeaseMs: env.SVC_WEBHOOK_LEASE_MS ? readLeaseMs(env.SVC_WEBHOOK_LEASE_MS) : undefined,
    lookupCacheMaxAgeMs: env.SVC_LOOKUP_CACHE_MAX_AGE_MS
      ? readPositiveInteger('SVC_LOOKUP_CACHE_MAX_AGE_MS', env.SVC_LOOKUP_CACHE_MAX_AGE_MS)
      : undefined,
    docsUrl: env.SVC_DOCS_URL ? readHttpUrl('SVC_DOCS_URL', env.SVC_DOCS_URL).replace(/\/+$/, '') : undefined,
  };
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535)
    throw new ConfigError(`PORT must be a port number (0 to 65535), got ${JSON.stringify(value)}`);
  return Number(value);
}

function readHttpUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:')
    throw new ConfigError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  return url.href;
}

/** A lease under a second would time each attempt out at under a third of a second (outbound/index.ts). */
function readLeaseMs(value: string): number {
  const ms = readPositiveInteger('SVC_WEBHOOK_LEASE_MS', value);
  if (ms < 1_000) throw new ConfigError(`SVC_WEBHOOK_LEASE_MS must be at least 1000 (ms), got "${value}"`);
  return ms;
}

function readPositiveInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer (milliseconds); got ${value}`);
  return n;
}

function readPublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError('PUBLIC_URL must start with https:// or http://');
  return url.origin;
}

function readOidc(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const [issuer, clientId, clientSecret] = oidcVariables.map((name) => env[name] || undefined);
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return undefined;
  const missing = oidcVariables.filter((name) => !env[name]);
  if (missing.length > 0) throw new ConfigError(`OpenID Connect sign-in is half configured: set ${missing.join(' and ')} too`);
  return { issuer: issuer!, clientId: clientId!, clientSecret: clientSecret!, emailsVerified: env.SVC_OIDC_EMAILS_VERIFIED === '1' };
}

function readSecretKey(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < minSecretKeyLength)
    throw new ConfigError(`SVC_SECRET_KEY must be at least ${minSecretKeyLength} characters (try: openssl rand -base64 48)`);
  return value;
}

function readWebhookSecrets(value: string | undefined): string[] {
  const secrets = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const wrong = secrets.find((s) => !s.startsWith('whsec_'));
  if (wrong !== undefined) throw new ConfigError('SVC_PROCESSOR_WEBHOOK_SECRET holds Stripe endpoint secrets, each starting with whsec_');
  return secrets;
}

const stripeConnectVariables = ['SVC_STRIPE_CLIENT_ID', 'SVC_STRIPE_SECRET_KEY'] as const;

function readStripeConnect(env: NodeJS.ProcessEnv): StripeConnectConfig | undefined {
  const [clientId, secretKey] = stripeConnectVariables.map((name) => env[name] || undefined);
  const connectUrl = env.SVC_STRIPE_CONNECT_URL || undefined;
  if (clientId === undefined && secretKey === undefined && connectUrl === undefined) return undefined;
  const missing = stripeConnectVariables.filter((name) => !env[name]);
  if (missing.length > 0) throw new ConfigError(`Connect with Stripe is half configured: set ${missing.join(' and ')} too`);
  return { clientId: clientId!, secretKey: secretKey!, connectUrl: readConnectUrl(connectUrl ?? 'https://connect.stripe.com') };
}

function readConnectUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ConfigError(`SVC_STRIPE_CONNECT_URL must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  return url.origin;
}
