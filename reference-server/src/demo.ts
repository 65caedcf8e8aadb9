#!/usr/bin/env node
// The main job (`pnpm start`): the reference server on the embedded database, a seeded demo program, and the demo storefront.
import { join } from 'node:path';
import { readConfig } from './config';
import { banner } from './demo/banner';
import { startDemo } from './demo/start-demo';
import { handleShutdownSignals } from './shutdown';

const config = readConfig({ ...process.env, DATABASE_URL: process.env.DATABASE_URL || `sqlite:${join(process.cwd(), 'svc-demo.sqlite')}` });
const apiKey = process.env.SVC_DEMO_API_KEY || undefined;
const demo = await startDemo({
  databaseUrl: config.databaseUrl,
  port: config.port,
  host: config.host,
  publicUrl: config.publicUrl,
  ...(apiKey ? { apiKey } : {}),
  logger: process.env.LOG_LEVEL !== undefined,
});
console.log(banner(demo, config.databaseUrl, apiKey !== undefined));

handleShutdownSignals(() => demo.close());
