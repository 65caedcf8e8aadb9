#!/usr/bin/env node
import { buildApp } from './app';
import { readConfig } from './config';
import { openStore } from './store/db';

const config = readConfig();
const store = await openStore(config.databaseUrl);
const app = buildApp({
  store,
  testControl: config.testControl,
  rateLimits: config.rateLimits,
  publicUrl: config.publicUrl,
  trustProxy: config.trustProxy,
  logger: process.env.LOG_LEVEL !== undefined,
});
await app.listen({ port: config.port, host: config.host });
console.log(`listening on http://${config.host}:${config.port}`);

// Graceful shutdown: stop accepting, let in-flight requests finish, then close the database.
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app
      .close()
      .then(() => store.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  });
}
