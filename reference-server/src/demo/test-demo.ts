import { createServer } from 'node:net';
import { uniqueSchemaName } from '../store/db';
import { startDemo, type Demo } from './start-demo';

/** A demo on a free port and the suite's database (in-memory SQLite, or a private PostgreSQL schema). */
export async function startTestDemo(options: { apiKey?: string } = {}): Promise<Demo> {
  const databaseUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
  return startDemo({
    databaseUrl,
    ...(databaseUrl.startsWith('postgres') ? { storeOptions: { pgSchema: uniqueSchemaName('svc_demo'), dropSchemaOnClose: true } } : {}),
    host: '127.0.0.1',
    port: await freePort(),
    ...options,
  });
}

/** A port free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
