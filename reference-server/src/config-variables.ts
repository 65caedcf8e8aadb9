/** One environment variable of `svc-reference-server`: what `--help` prints and docs/deploying.md's table repeats. */
export interface ConfigVariable {
  name: string;
  default: string;
  meaning: string;
}

/**
 * Every variable the server reads (`config.ts` and what it calls). A test checks this list against those sources
 * and against docs/deploying.md, so a new variable is added here, in one row.
 */
export const configVariables: ConfigVariable[] = [
  { name: 'DATABASE_URL', default: 'sqlite:./svc.sqlite', meaning: 'sqlite:<file>, sqlite::memory: or postgres://user:pass@host:5432/db' },
  { name: 'PORT', default: '8787', meaning: 'Port to listen on (--port overrides it)' },
  { name: 'HOST', default: '127.0.0.1', meaning: 'Interface to listen on (--host overrides it; 0.0.0.0 in a container)' },
  { name: 'PUBLIC_URL', default: 'http://HOST:PORT', meaning: 'The origin people and storefronts reach the server at' },
  { name: 'TRUST_PROXY', default: 'off', meaning: 'The proxies in front: a hop count (1 = one proxy) or their addresses / CIDRs' },
  { name: 'REDIS_URL', default: 'unset', meaning: 'Rate-limit counters shared by every instance (memory per process when unset)' },
  { name: 'REDIS_PREFIX', default: 'svc:rl:', meaning: 'Key prefix of those counters; instances sharing limits share it' },
  { name: 'SVC_REQUEST_TIMEOUT_MS', default: '30000', meaning: 'A whole request must arrive within it, else 408' },
  { name: 'SVC_CONNECTION_TIMEOUT_MS', default: '75000', meaning: 'A socket idle this long is closed' },
  {
    name: 'SVC_KEEP_ALIVE_TIMEOUT_MS',
    default: '65000',
    meaning: "Idle keep-alive connections kept this long (above your proxy's idle timeout)",
  },
  { name: 'SVC_MAX_CONNECTIONS', default: '1000', meaning: 'Connections past this many are closed on arrival' },
  { name: 'SVC_OIDC_ISSUER', default: 'unset', meaning: 'OpenID Connect issuer URL (sign-in)' },
  { name: 'SVC_OIDC_CLIENT_ID', default: 'unset', meaning: 'OpenID Connect client id; also the aud every ID token must carry' },
  { name: 'SVC_OIDC_CLIENT_SECRET', default: 'unset', meaning: 'OpenID Connect client secret (client_secret_basic)' },
  { name: 'SVC_OIDC_EMAILS_VERIFIED', default: 'unset', meaning: '1: an ID token without email_verified counts as verified' },
  {
    name: 'SVC_DEV_SIGN_IN',
    default: 'off',
    meaning: '1: email-only development sign-in; anyone can sign in as anyone, never in production',
  },
  {
    name: 'SVC_WORKSPACE_CREATORS',
    default: 'first account',
    meaning: 'Who may create workspaces and programs: emails and @domain entries, comma-separated, or * for anyone',
  },
  {
    name: 'SVC_SECRET_KEY',
    default: 'generated',
    meaning: 'The server secret, at least 32 characters (unset: generated once, kept in the database)',
  },
  { name: 'SVC_PROCESSOR_WEBHOOK_SECRET', default: 'unset', meaning: 'Stripe endpoint secrets (whsec_...), comma-separated' },
  { name: 'SVC_STRIPE_CLIENT_ID', default: 'unset', meaning: "Stripe Connect platforms: the platform's Connect client id (ca_...)" },
  { name: 'SVC_STRIPE_SECRET_KEY', default: 'unset', meaning: "With SVC_STRIPE_CLIENT_ID: the platform's secret key (sk_live_...)" },
  { name: 'SVC_STRIPE_CONNECT_URL', default: 'https://connect.stripe.com', meaning: "Where Stripe's OAuth endpoints are; leave it unset" },
  {
    name: 'SVC_WEBHOOKS_ALLOW_PRIVATE',
    default: 'off',
    meaning: '1: outbound webhooks may go to loopback, private and link-local addresses',
  },
  {
    name: 'SVC_WEBHOOK_LEASE_MS',
    default: '30000',
    meaning:
      'After a crash, a claimed outbound webhook is sent again this long after the claim; attempts time out at a third of it (at most 10 s)',
  },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  { name: 'SVC_TEST_CONTROL', default: 'off', meaning: '1: the /_test/* control API and the development sign-in; CI only' },
  {
    name: 'SVC_RATE_LIMITS',
    default: "the spec's",
    meaning: 'Per-minute limits as name=perMinute pairs (lead=300,click=600); off removes them (benchmarks only)',
  },
  { name: 'SVC_LOOKUP_CACHE_MAX_AGE_MS', default: '1000', meaning: 'PostgreSQL: the age limit of cached lookups; leave it unset' },
  { name: 'SVC_DOCS_URL', default: 'PUBLIC_URL/docs', meaning: 'Where the docs site lives when hosted elsewhere: /docs redirects there' },
];

/** The table as `--help` prints it: one aligned line per variable. */
export function configVariableLines(variables: ConfigVariable[] = configVariables): string[] {
  const nameWidth = Math.max(...variables.map((v) => v.name.length));
  const defaultWidth = Math.max(...variables.map((v) => v.default.length));
  return variables.map((v) => `  ${v.name.padEnd(nameWidth)}  ${v.default.padEnd(defaultWidth)}  ${v.meaning}`);
}
