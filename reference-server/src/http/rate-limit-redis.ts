import { Redis } from 'ioredis';
import { windowMs, type RateLimitStore } from './rate-limit';

export interface RedisRateLimitStoreOptions {
  /**
   * Every key this store writes starts with it. Servers that must share limits (§Limits, counted across
   * processes) use the same prefix; tests give each server its own so they never see each other's counters.
   */
  prefix?: string;
}

export const defaultRedisPrefix = 'svc:rl:';

/**
 * Window counters in Redis, so every process behind one address counts one client against one limit
 * (§Limits). One MULTI per hit: INCR the counter of the window and PEXPIREAT it shortly after the window
 * end, so counters clean themselves up and no process has to sweep them. Every key has that TTL, so a Redis with
 * `maxmemory` and `maxmemory-policy volatile-lru` bounds them with Redis's own O(1) LRU eviction (README).
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(url: string, options: RedisRateLimitStoreOptions = {}) {
    this.prefix = options.prefix ?? defaultRedisPrefix;
    // Fail fast instead of queueing requests forever when Redis is down: the route's 500 is better than a hang.
    this.redis = new Redis(url, { maxRetriesPerRequest: 2 });
    // Connection errors surface on the commands (and so as the route's 500); the event itself is noise.
    this.redis.on('error', () => {});
  }

  async hit(key: string, windowEnd: number): Promise<number> {
    // The window end is part of the key: a new window starts a new counter without a read-modify-write.
    const redisKey = `${this.prefix}${windowEnd}:${key}`;
    // Kept one window past its end (or past now, when the test clock sits in the past) so a skewed Redis
    // clock never drops a live counter; the window end in the key already separates windows.
    const expireAt = Math.max(windowEnd, Date.now()) + windowMs;
    const results = await this.redis.multi().incr(redisKey).pexpireat(redisKey, expireAt).exec();
    const [incrError, count] = results?.[0] ?? [new Error('Redis MULTI returned no result'), null];
    if (incrError) throw incrError;
    return Number(count);
  }

  async peek(key: string, windowEnd: number): Promise<number> {
    return Number((await this.redis.get(`${this.prefix}${windowEnd}:${key}`)) ?? 0);
  }

  /** Deletes this store's counters only (the test-control reset), never other servers' keys. */
  async reset(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${escapeGlob(this.prefix)}*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** SCAN MATCH is a glob: a prefix holding `*`, `?`, `[` or `\` must match itself literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
