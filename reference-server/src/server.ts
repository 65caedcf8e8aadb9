#!/usr/bin/env node
import { buildApp } from './app';
import { readConfig } from './config';
import { RedisRateLimitStore } from './http/rate-limit-redis';
import { handleShutdownSignals } from './shutdown';
import { openStore } from './store/db';

const config = readConfig();
const store = await openStore(config.databaseUrl);
const app = buildApp({
  store,
  testControl: config.testControl,
  rateLimits: config.rateLimits,
  // §Limits across processes: servers sharing one Redis count one client against one limit.
  ...(config.redisUrl ? { rateLimitStore: new RedisRateLimitStore(config.redisUrl, { prefix: config.redisPrefix }) } : {}),
  publicUrl: config.publicUrl,
  trustProxy: config.trustProxy,
  logger: process.env.LOG_LEVEL !== undefined,
});
await app.listen({ port: config.port, host: config.host });
console.log(`listening on http://${config.host}:${config.port}`);

// Graceful shutdown: stop accepting, let in-flight requests finish, then close the database.
handleShutdownSignals(async () => {
  await app.close();
  await store.close();
});
