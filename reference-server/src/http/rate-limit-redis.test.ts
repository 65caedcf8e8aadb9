import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { openStore } from '../store/db';
import { windowMs } from './rate-limit';
import { RedisRateLimitStore } from './rate-limit-redis';

// The real Redis of the machine (CI starts it); every test uses its own key prefix. Without REDIS_URL a machine
// with no Redis skips these tests; with it (as in CI) an unreachable Redis fails them rather than hiding.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
const redisUp = await probe.connect().then(
  () => true,
  () => false,
);
if (!redisUp && process.env.REDIS_URL !== undefined) throw new Error(`REDIS_URL is set but no Redis answers at ${redisUrl}`);
if (!redisUp) console.warn(`rate-limit-redis tests skipped: no Redis at ${redisUrl}`);

const opened: RedisRateLimitStore[] = [];
const prefixes = new Set<string>();
/** A store once connected: nothing is queued before (`enableOfflineQueue: false`), so a command then would fail. */
async function store(prefix = `svc:test:${randomBytes(6).toString('hex')}:`) {
  const s = new RedisRateLimitStore(redisUrl, { prefix });
  opened.push(s);
  prefixes.add(prefix);
  await new Promise<void>((resolve) => s.onChange((ready) => ready && resolve()));
  return { s, prefix };
}
const glob = (prefix: string) => `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
const keysUnder = (prefix: string) => probe.keys(glob(prefix));

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const prefix of prefixes) {
    const keys = await keysUnder(prefix);
    if (keys.length > 0) await probe.del(...keys);
  }
  prefixes.clear();
});
afterAll(() => probe.quit().catch(() => undefined));

describe.skipIf(!redisUp)('RedisRateLimitStore', () => {
  const windowEnd = () => Math.floor(Date.now() / windowMs) * windowMs + windowMs;

  it('peeks at a count without counting, and every counter carries a TTL (bounded by volatile-lru)', async () => {
    const { s, prefix } = await store();
    const end = windowEnd();
    expect(await s.peek('authFailures:ip:1.2.3.4', end)).toBe(0);
    await s.hit('authFailures:ip:1.2.3.4', end);
    expect(await s.peek('authFailures:ip:1.2.3.4', end)).toBe(1);
    expect(await s.peek('authFailures:ip:1.2.3.4', end)).toBe(1);
    for (const key of await keysUnder(prefix)) expect(await probe.pttl(key)).toBeGreaterThan(0);
  });

  it('counts hits per key and window, and expires each counter shortly after its window', async () => {
    const { s, prefix } = await store();
    const end = windowEnd();
    expect(await s.hit('click:ip:1.2.3.4', end)).toBe(1);
    expect(await s.hit('click:ip:1.2.3.4', end)).toBe(2);
    expect(await s.hit('click:ip:5.6.7.8', end)).toBe(1);
    // A new window is a new counter.
    expect(await s.hit('click:ip:1.2.3.4', end + windowMs)).toBe(1);
    const key = `${prefix}${end}:click:ip:1.2.3.4`;
    const expiresAt = await probe.pexpiretime(key);
    expect(expiresAt).toBeGreaterThanOrEqual(end);
    expect(expiresAt).toBeLessThanOrEqual(end + windowMs);
  });

  it('is one counter for two stores with the same prefix (two servers) and separate for different prefixes', async () => {
    const { s: a, prefix } = await store();
    const { s: b } = await store(prefix);
    const { s: other } = await store();
    const end = windowEnd();
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit('money:key:k', end)));
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await other.hit('money:key:k', end)).toBe(1);
  });

  it('keeps a counter alive when the test clock sits in the past', async () => {
    const { s, prefix } = await store();
    const past = windowEnd() - 10 * windowMs;
    expect(await s.hit('lead:ip:x', past)).toBe(1);
    expect(await s.hit('lead:ip:x', past)).toBe(2);
    const [key] = await keysUnder(prefix);
    expect(await probe.pttl(key!)).toBeGreaterThan(windowMs / 2);
  });

  it('reset deletes its own keys only, even with glob characters in the prefix', async () => {
    const { s: mine, prefix } = await store(`svc:test:[${randomBytes(4).toString('hex')}]*:`);
    const { s: theirs, prefix: theirPrefix } = await store();
    const end = windowEnd();
    for (let i = 0; i < 5; i++) await mine.hit(`click:ip:${i}`, end);
    await theirs.hit('click:ip:0', end);
    expect(await keysUnder(prefix)).toHaveLength(5);
    await mine.reset();
    expect(await keysUnder(prefix)).toHaveLength(0);
    expect(await keysUnder(theirPrefix)).toHaveLength(1);
    expect(await mine.hit('click:ip:0', end)).toBe(1);
  });

  it('gives the same limits and headers as the memory store through the app (spec/rules.md "Limits")', async () => {
    const { s } = await store();
    const db = await openStore('sqlite::memory:');
    const app = buildApp({ store: db, rateLimitStore: s });
    // A route in the click bucket that exists whatever routes are built yet: registered here on purpose.
    app.post('/probe', { config: { rateLimit: 'click' } }, async () => ({ ok: true }));
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 61; i++) {
        last = await app.inject({ method: 'POST', url: '/probe', remoteAddress: '10.0.0.9' });
        statuses.push(last.statusCode);
      }
      expect(statuses.slice(0, 60).every((code) => code === 200)).toBe(true);
      if (!last) throw new Error('no request was sent');
      expect(last.statusCode).toBe(429);
      expect(last.headers['x-ratelimit-limit']).toBe('60');
      expect(last.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(last.body)).toMatchObject({ error: { code: 'rate_limited', status: 429, message: 'Too many requests.' } });
      // Another client is counted on its own.
      const other = await app.inject({ method: 'POST', url: '/probe', remoteAddress: '10.0.0.10' });
      expect(other.headers['x-ratelimit-remaining']).toBe('59');
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('fails a command at once while Redis is unreachable, queueing nothing (the caller counts in memory)', async () => {
    const down = new RedisRateLimitStore('redis://127.0.0.1:1', { prefix: 'svc:test:down:' });
    await expect(down.hit('click:ip:1', windowEnd())).rejects.toThrow(/enableOfflineQueue/);
    expect(await down.ping()).toBe(false);
    await down.close();
  });
});
