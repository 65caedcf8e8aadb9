import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { openStore, uniqueSchemaName } from '../../src/store/db';
import { assertValidResponse } from '../../src/testing/validate';
import { createHarness, type Harness } from '../harness';
import { tcpProxy } from '../scale/tcp-proxy';

// GET /readyz (spec/openapi.yaml `ready`, Decision): each dependency named, 503 when any is down; /healthz stays
// liveness. The Redis cases are in test/scale/redis-outage.test.ts.
const databaseUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
const postgres = databaseUrl.startsWith('postgres') ? databaseUrl : undefined;

async function get(app: ReturnType<typeof buildApp>, url: string) {
  const res = await app.inject({ method: 'GET', url });
  assertValidResponse({ method: 'GET', url, status: res.statusCode, headers: res.headers, body: res.body });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('GET /readyz', () => {
  it('answers 200 naming each dependency: the database ok, Redis not configured', async () => {
    const res = await h.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'not_configured' } });
  });

  it('answers 503 naming the database when it cannot be queried', async () => {
    const store = await openStore(databaseUrl, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const app = buildApp({ store });
    await app.ready();
    await store.close();
    try {
      const res = await get(app, '/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'degraded', checks: { database: 'down', redis: 'not_configured' } });
    } finally {
      await app.close();
    }
  });

  it.skipIf(!postgres)('answers 503 when the database stops answering, after its 1 s, not when the query would end', async () => {
    const url = new URL(postgres!);
    const proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) }, 'postgres');
    url.host = `127.0.0.1:${proxy.port}`;
    const store = await openStore(url.toString(), { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const app = buildApp({ store });
    await app.ready();
    try {
      expect((await get(app, '/readyz')).status).toBe(200);
      proxy.freeze();
      const res = await get(app, '/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'degraded', checks: { database: 'down', redis: 'not_configured' } });
      proxy.thaw();
      await expect.poll(async () => (await get(app, '/readyz')).status, { timeout: 5_000 }).toBe(200);
    } finally {
      proxy.thaw();
      await app.close();
      await store.close();
      await proxy.close();
    }
  });
});
