#!/usr/bin/env node
// The main job (`pnpm start`): the reference server on the embedded database, a seeded demo program, and the demo storefront.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from './config';
import { ConfigError, exitOnConfigError } from './config-error';
import { banner } from './demo/banner';
import { readDemoKey, removeDemoFiles, writeDemoKey } from './demo/demo-key';
import { startDemo } from './demo/start-demo';
import { handleShutdownSignals } from './shutdown';

// A configuration error is one line naming the variable and the fix, and exit code 2 (no stack trace).
const { values: flags } = exitOnConfigError('pnpm start', () => {
  try {
    return parseArgs({ options: { fresh: { type: 'boolean' } }, strict: true });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} (the demo takes only --fresh)`);
  }
});
const databaseFile = join(process.cwd(), 'svc-demo.sqlite');
const keyFile = join(process.cwd(), 'svc-demo.key');
const usesDemoFile = !process.env.DATABASE_URL;
if (flags.fresh) removeDemoFiles(usesDemoFile ? [databaseFile, keyFile] : [keyFile]);

const config = exitOnConfigError('pnpm start', () =>
  readConfig({ ...process.env, DATABASE_URL: process.env.DATABASE_URL || `sqlite:${databaseFile}` }),
);
const fixedKey = process.env.SVC_DEMO_API_KEY || undefined;
const apiKey = fixedKey ?? readDemoKey(keyFile);
let demo;
try {
  demo = await startDemo({
    databaseUrl: config.databaseUrl,
    port: config.port,
    host: config.host,
    publicUrl: config.publicUrl,
    ...(apiKey ? { apiKey } : {}),
    log: { level: process.env.LOG_LEVEL || 'warn' },
    processorWebhookSecrets: config.processorWebhookSecrets,
    ...(config.secretKey ? { secretKey: config.secretKey } : {}),
    // A first start migrates a new database: each step says what it did and how long it took.
    onStep: (step, ms) => console.log(`✓ ${step} in ${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`),
  });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  console.error(
    `Port ${config.port} is already in use (another svc demo or server?). Stop it, or choose another port: PORT=${config.port + 1} pnpm start`,
  );
  process.exit(1);
}
if (!fixedKey) writeDemoKey(keyFile, demo.seeded.apiKey);
console.log(banner(demo, config.databaseUrl, fixedKey !== undefined ? 'env' : 'file'));

const running = demo;
handleShutdownSignals(() => running.close());
