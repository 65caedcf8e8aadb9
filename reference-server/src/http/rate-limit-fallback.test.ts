import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tcpProxy } from '../../test/scale/tcp-proxy';
import { windowMs } from './rate-limit';
import { redisRateLimits } from './rate-limit-fallback';

// The real Redis behind a TCP proxy this test owns (closing the proxy is the outage; the shared Redis is never
// touched), and a Redis that accepts connections but never answers (a hung one).
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const target = new URL(redisUrl);
const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
const redisUp = await probe.connect().then(
  () => true,
  () => false,
);
if (!redisUp && process.env.REDIS_URL !== undefined) throw new Error(`REDIS_URL is set but no Redis answers at ${redisUrl}`);

/** A logger keeping the lines the store writes (the store writes only warn and info). */
function lines() {
  const seen: { level: string; msg: string }[] = [];
  const log = {
    warn: (msg: string) => seen.push({ level: 'warn', msg }),
    info: (msg: string) => seen.push({ level: 'info', msg }),
  } as unknown as FastifyBaseLogger;
  return { seen, log };
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(() => probe.quit().catch(() => undefined));
const windowEnd = () => Math.floor(Date.now() / windowMs) * windowMs + windowMs;

describe.skipIf(!redisUp)('FallbackRateLimitStore', () => {
  it('counts in Redis while it answers, in memory while it does not, and in Redis again once it is back', async () => {
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const prefix = `svc:test:fallback:${randomBytes(6).toString('hex')}:`;
    const { seen, log } = lines();
    const store = redisRateLimits(proxy.url, { prefix }, log);
    cleanup.push(
      () => proxy.close(),
      async () => {
        const keys = await probe.keys(`${prefix}*`);
        if (keys.length > 0) await probe.del(...keys);
      },
      () => store.close(),
    );
    // What the server does before it listens: a healthy Redis counts from the first request.
    await store.connect();
    expect(store.usingRedis).toBe(true);
    const end = windowEnd();
    expect(await store.hit('click:ip:a', end)).toBe(1);
    expect(await store.hit('click:ip:a', end)).toBe(2);
    expect(await probe.get(`${prefix}${end}:click:ip:a`)).toBe('2');
    expect(await store.ping()).toBe(true);

    await proxy.close();
    // Counted in memory from zero: the Redis counter is out of reach, and stays as it was.
    expect(await store.hit('click:ip:a', end)).toBe(1);
    expect(await store.hit('click:ip:a', end)).toBe(2);
    expect(await store.peek('click:ip:a', end)).toBe(2);
    expect(store.usingRedis).toBe(false);
    expect(await store.ping()).toBe(false);
    expect(await probe.get(`${prefix}${end}:click:ip:a`)).toBe('2');
    expect(seen).toEqual([{ level: 'warn', msg: expect.stringMatching(/^Redis is unreachable .*counted in this process/) }]);

    await proxy.open();
    await expect.poll(() => store.usingRedis, { timeout: 10_000 }).toBe(true);
    expect(await store.hit('click:ip:a', end)).toBe(3);
    expect(seen.map((line) => line.level)).toEqual(['warn', 'info']);
    expect(seen[1]!.msg).toMatch(/^Redis is reachable again/);
  });

  it('a hung Redis (connected, silent) costs one request a command timeout; memory answers the rest at once', async () => {
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const prefix = `svc:test:hung:${randomBytes(6).toString('hex')}:`;
    const { seen, log } = lines();
    const store = redisRateLimits(proxy.url, { prefix }, log);
    cleanup.push(
      () => proxy.close(),
      async () => {
        const keys = await probe.keys(`${prefix}*`);
        if (keys.length > 0) await probe.del(...keys);
      },
      () => store.close(),
    );
    await expect.poll(() => store.usingRedis, { timeout: 5_000 }).toBe(true);
    const end = windowEnd();
    expect(await store.hit('lead:ip:b', end)).toBe(1);

    proxy.freeze();
    // The command times out (rate-limit-redis.ts, `redisWaits.commandTimeoutMs`): this hit is counted in memory.
    expect(await store.hit('lead:ip:b', end)).toBe(1);
    expect(seen).toEqual([{ level: 'warn', msg: expect.stringMatching(/^Redis is unreachable \(Command timed out\)/) }]);
    expect(store.usingRedis).toBe(false);
    expect(await store.hit('lead:ip:b', end)).toBe(2);

    proxy.thaw();
    await expect.poll(() => store.usingRedis, { timeout: 10_000 }).toBe(true);
    expect(seen.map((line) => line.level)).toEqual(['warn', 'info']);
    // The held INCR reached Redis too (TCP delivers it late): Redis counts it, as it would a slow request.
    expect(await store.hit('lead:ip:b', end)).toBe(3);
  });

  it('a Redis that never answers at start-up warns once and counts in memory meanwhile', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const { seen, log } = lines();
    const store = redisRateLimits(`redis://127.0.0.1:${port}`, { prefix: 'svc:test:silent:' }, log);
    cleanup.push(
      () => new Promise((resolve) => silent.close(resolve)),
      async () => sockets.forEach((socket) => socket.destroy()),
      () => store.close(),
    );
    // The start does not wait for it past the connect timeout, and does not fail.
    await store.connect();
    const end = windowEnd();
    expect(await store.hit('lead:ip:c', end)).toBe(1);
    expect(await store.ping()).toBe(false);
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    expect(seen[0]).toMatchObject({ level: 'warn' });
    expect(await store.hit('lead:ip:c', end)).toBe(2);
  });
});
