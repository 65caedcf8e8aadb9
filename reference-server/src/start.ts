import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app';
import { openStore, uniqueSchemaName, type Store } from './store/db';
import { createControlClient, type ControlClient } from './testing/control-client';

export interface StartOptions extends Omit<AppOptions, 'store' | 'publicUrl' | 'redis'> {
  /** `sqlite::memory:` (default), `sqlite:<file>` or `postgres://…`. */
  databaseUrl?: string;
  /** PostgreSQL: run in a fresh schema dropped on close, so parallel test servers share one database. */
  isolateSchema?: boolean;
  /** Count rate limits in this Redis (shared across servers) instead of in memory; in memory while it is unreachable. */
  redisUrl?: string;
  /** Key prefix of the Redis counters (servers that share limits share it). */
  redisPrefix?: string;
  port?: number;
  host?: string;
}

export interface ReferenceServer {
  /** Base URL, e.g. `http://127.0.0.1:53211`. */
  url: string;
  app: FastifyInstance;
  store: Store;
  /** Typed client of the `/_test/*` control API (requires `testControl: true`). */
  control: ControlClient;
  close(): Promise<void>;
}

/**
 * Starts the reference server in-process, for integration tests: on an ephemeral port and an in-memory
 * database by default. `await using`-free on purpose: call `close()` in `afterAll`.
 */
export async function startReferenceServer(options: StartOptions = {}): Promise<ReferenceServer> {
  const databaseUrl = options.databaseUrl ?? 'sqlite::memory:';
  const isolate = options.isolateSchema ?? databaseUrl.startsWith('postgres');
  const store = await openStore(databaseUrl, isolate ? { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true } : {});
  const host = options.host ?? '127.0.0.1';
  // The public URL must be known before listening, so pick the port first when none is given.
  const port = options.port ?? (await freePort(host));
  const url = `http://${host}:${port}`;
  const { redisUrl, redisPrefix, ...appOptions } = options;
  const app = buildApp({ ...appOptions, store, publicUrl: url, ...(redisUrl ? { redis: { url: redisUrl, prefix: redisPrefix } } : {}) });
  await app.listen({ port, host });
  return {
    url,
    app,
    store,
    control: createControlClient(url),
    async close() {
      await app.close();
      await store.close();
    },
  };
}

async function freePort(host: string): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
