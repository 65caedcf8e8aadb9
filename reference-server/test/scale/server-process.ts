import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createControlClient, type ControlClient } from '../../src/testing/control-client';

/** The built server (`pnpm --filter @svc/reference-server build`): what production runs, so what these tests run. */
export const serverEntry = fileURLToPath(new URL('../../dist/server.js', import.meta.url));

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  control: ControlClient;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` and resolves with the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

export interface SpawnOptions {
  databaseUrl: string;
  redisUrl?: string;
  redisPrefix?: string;
  port?: number;
  env?: Record<string, string>;
  /** `node` flags such as `--cpu-prof`. */
  nodeArgs?: string[];
  /**
   * Keep what the server writes only until it listens, then just drain it (the benchmark): kept, a loaded server's
   * log lines are megabytes a second decoded and joined in this process, which is also the load generator.
   */
  outputUntilListening?: boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * `count` servers on one database (a PostgreSQL schema: servers on one SQLite file are not supported). One after
 * the other at first: the first creates the schema and migrates, the rest find it ready and start together.
 */
export async function spawnServers(count: number, options: SpawnOptions): Promise<ServerProcess[]> {
  const { port: _onePortForOneServer, ...shared } = options;
  const first = await spawnServer(shared);
  const rest = await Promise.all(Array.from({ length: count - 1 }, () => spawnServer(shared)));
  return [first, ...rest];
}

/** Spawns `node dist/server.js` with test control on and waits until it listens. */
export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run \`pnpm --filter @svc/reference-server build\` first`);
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    SVC_TEST_CONTROL: '1',
    ...options.env,
  };
  delete env.REDIS_URL;
  if (options.redisUrl) env.REDIS_URL = options.redisUrl;
  if (options.redisPrefix) env.REDIS_PREFIX = options.redisPrefix;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), serverEntry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 20 s:\n${output}`)), 20_000);
    const onData = () => {
      if (!output.includes('listening on')) return;
      clearTimeout(timer);
      // Stop looking: scanning the whole output again on every later chunk cost the benchmark's load generator (this
      // process) more CPU the longer a loaded server logged, and slowed what it measured (docs/performance-notes.md).
      child.stdout.off('data', onData);
      if (options.outputUntilListening) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
      }
      resolve();
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    child,
    control: createControlClient(url),
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
