import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertValidResponse } from '../../src/testing/validate';
import { privateDatabase, type PrivateDatabase } from './databases';
import { spawnServer, type ServerProcess } from './server-process';
import { tcpProxy, type TcpProxy } from './tcp-proxy';

// Degrade, do not die: the built server (what production runs) with its Redis behind a TCP proxy this test owns.
// Closing the proxy is the outage; the shared Redis itself is never touched. Runs on the suite's store.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const target = new URL(redisUrl);
const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
const redisUp = await probe.connect().then(
  () => true,
  () => false,
);
if (!redisUp && process.env.REDIS_URL !== undefined) throw new Error(`REDIS_URL is set but no Redis answers at ${redisUrl}`);
if (!redisUp) console.warn(`Redis outage tests skipped: no Redis at ${redisUrl}`);

async function call(server: ServerProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  assertValidResponse({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as Record<string, any> };
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;
const goneAway = 'Redis is unreachable';
const back = 'Redis is reachable again';

/** A program with a partner link, and the clock a second into a rate-limit window (the whole burst fits in it). */
async function clickable(server: ServerProcess) {
  const minute = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
  await server.control.clock({ now: new Date(minute + 1_000).toISOString() });
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  const partner = await server.control.createPartner({ program_id: program.id });
  const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
  return () => call(server, 'POST', '/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
}

describe.skipIf(!redisUp)('a Redis outage', () => {
  let db: PrivateDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  const prefix = `svc:outage:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    db = privateDatabase('outage');
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    server = await spawnServer({ databaseUrl: db.url, redisUrl: proxy.url, redisPrefix: prefix, env: { SVC_RATE_LIMITS: 'click=8' } });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await db?.dispose();
    const keys = await probe.keys(`${prefix}*`);
    if (keys.length > 0) await probe.del(...keys);
    await probe.quit();
  });

  it('keeps tracking with limits counted in the process, says so once, and goes back to Redis when it returns', async () => {
    await expect.poll(async () => (await call(server, 'GET', '/readyz')).status, { timeout: 10_000 }).toBe(200);
    expect((await call(server, 'GET', '/readyz')).body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    const click = await clickable(server);
    for (let i = 0; i < 2; i++) expect((await click()).status).toBe(200);
    expect(await probe.keys(`${prefix}*click*`)).toHaveLength(1);

    await proxy.close();
    // Every click answers, counted in this process from zero: eight pass, the ninth is over the configured limit.
    for (let i = 0; i < 8; i++) expect((await click()).status).toBe(200);
    const limited = await click();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('8');
    const down = await call(server, 'GET', '/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'down' } });
    expect((await call(server, 'GET', '/healthz')).status).toBe(200);
    expect(occurrences(server.output(), goneAway)).toBe(1);

    await proxy.open();
    await expect.poll(async () => (await call(server, 'GET', '/readyz')).status, { timeout: 15_000 }).toBe(200);
    await expect.poll(() => occurrences(server.output(), back), { timeout: 5_000 }).toBe(1);
    // Counted in Redis again, where the two clicks from before the outage still are.
    const again = await click();
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('5');
    expect(occurrences(server.output(), goneAway)).toBe(1);
  });
});

describe.skipIf(!redisUp)('start-up with REDIS_URL unreachable', () => {
  it('warns (never naming its password), serves clicks with limits in memory, and answers /readyz 503 naming redis', async () => {
    const db = privateDatabase('deadredis');
    // A port this test holds, hanging up on every connection: no other process can take it meanwhile, as it could
    // a port merely found free.
    const dead = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    const server = await spawnServer({ databaseUrl: db.url, redisUrl: `redis://:hunter2-redis-secret@127.0.0.1:${port}` });
    try {
      await expect.poll(() => occurrences(server.output(), goneAway), { timeout: 10_000 }).toBe(1);
      const click = await clickable(server);
      const answer = await click();
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
      const ready = await call(server, 'GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.checks).toEqual({ database: 'ok', redis: 'down' });
      expect(server.output()).not.toContain('hunter2');
    } finally {
      await server.stop();
      await db.dispose();
      await new Promise((resolve) => dead.close(resolve));
    }
  });
});
