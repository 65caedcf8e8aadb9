#!/usr/bin/env node
import { buildApp } from './app';
import { readConfig } from './config';
import { exitOnConfigError } from './config-error';
import { readServerArgs, usage } from './server-args';
import { handleShutdownSignals } from './shutdown';
import { openStore } from './store/db';

// A configuration error is one line naming the variable and the fix, and exit code 2 (no stack trace).
const args = exitOnConfigError('svc-reference-server', () => readServerArgs(process.argv.slice(2), process.env));
if (args.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const config = exitOnConfigError('svc-reference-server', () => readConfig(args.env));
const store = await openStore(config.databaseUrl, config.lookupCacheMaxAgeMs ? { lookupCacheMaxAgeMs: config.lookupCacheMaxAgeMs } : {});
const app = buildApp({
  store,
  testControl: config.testControl,
  rateLimits: config.rateLimits,
  rateLimitOverrides: config.rateLimitOverrides,
  // spec/rules.md "Limits" across processes: servers sharing one Redis count one client against one limit.
  ...(config.redisUrl ? { redis: { url: config.redisUrl, prefix: config.redisPrefix } } : {}),
  publicUrl: config.publicUrl,
  ...(config.docsUrl ? { docs: { url: config.docsUrl } } : {}),
  trustProxy: config.trustProxy,
  ...(config.oidc ? { oidc: config.oidc } : {}),
  devSignIn: config.devSignIn,
  ...(config.workspaceCreators ? { workspaceCreators: config.workspaceCreators } : {}),
  ...(config.secretKey ? { secretKey: config.secretKey } : {}),
  processorWebhookSecrets: config.processorWebhookSecrets,
  ...(config.stripeConnect ? { stripeConnect: config.stripeConnect } : {}),
  log: { level: config.logLevel },
  connectionLimits: config.connectionLimits,
  // Unset, test control alone lets outbound webhooks reach private addresses (spec/openapi.yaml, `outbound-webhooks`).
  ...(config.webhooksAllowPrivate ? { webhooksAllowPrivate: true } : {}),
  ...(config.webhookLeaseMs ? { webhookLeaseMs: config.webhookLeaseMs } : {}),
});
warnAboutSignIn();
await app.listen({ port: config.port, host: config.host });
console.log(`listening on http://${config.host}:${config.port}`);

// Graceful shutdown: stop accepting, let in-flight requests finish, then close the database.
handleShutdownSignals(async () => {
  await app.close();
  await store.close();
});

/** Safe by default: nobody can sign in until sign-in is configured; say so once, and say what dev sign-in means. */
function warnAboutSignIn(): void {
  if (!config.oidc && !config.devSignIn && !config.testControl) {
    app.log.warn('sign-in is not configured: set SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET (docs/deploying.md)');
  } else if (config.devSignIn) {
    app.log.warn('SVC_DEV_SIGN_IN=1: anyone can sign in as any email address; never use it in production');
  }
  if (config.processorWebhookSecrets.length === 0 && !config.testControl) {
    app.log.warn('SVC_PROCESSOR_WEBHOOK_SECRET is not set: processor webhooks are refused until it is (docs/deploying.md)');
  }
}
