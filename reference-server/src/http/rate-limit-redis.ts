import { createRequire } from 'node:module';
import type * as Ioredis from 'ioredis';
import { windowMs, type RateLimitStore } from './rate-limit';

export interface RedisRateLimitStoreOptions {
  /**
   * Every key this store writes starts with it. Servers that must share limits (spec/rules.md "Limits", counted across
   * processes) use the same prefix; tests give each server its own so they never see each other's counters.
   */
  prefix?: string;
}

export const defaultRedisPrefix = 'svc:rl:';

/** ioredis, loaded when a server is given Redis, not on import: one without never loads it (test/start-up/drivers.test.ts). */
const redisClass = () => (createRequire(import.meta.url)('ioredis') as typeof Ioredis).Redis;

/**
 * How long a request may wait on Redis. Nothing queues while Redis is away (`enableOfflineQueue: false`: a command
 * sent then fails at once), a command gets no retry of its own and is abandoned after `commandTimeoutMs`, so a dead
 * or hung Redis costs a request at most that before the caller counts in memory instead (rate-limit-fallback.ts).
 */
export const redisWaits = { connectTimeoutMs: 1_000, commandTimeoutMs: 300, maxReconnectDelayMs: 2_000 };

/**
 * Window counters in Redis, so every process behind one address counts one client against one limit
 * (spec/rules.md "Limits"). One MULTI per hit: INCR the counter of the window and PEXPIREAT it shortly after the window
 * end, so counters clean themselves up and no process has to sweep them. Every key has that TTL, so a Redis with
 * `maxmemory` and `maxmemory-policy volatile-lru` bounds them with Redis's own O(1) LRU eviction (README).
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Ioredis.Redis;
  private readonly prefix: string;

  constructor(url: string, options: RedisRateLimitStoreOptions = {}) {
    this.prefix = options.prefix ?? defaultRedisPrefix;
    const RedisClient = redisClass();
    this.redis = new RedisClient(url, {
      enableOfflineQueue: false,
      connectTimeout: redisWaits.connectTimeoutMs,
      commandTimeout: redisWaits.commandTimeoutMs,
      maxRetriesPerRequest: 0,
      // Never give up reconnecting (a Redis down at start-up or later comes back without a restart).
      retryStrategy: (times) => Math.min(times * 200, redisWaits.maxReconnectDelayMs),
    });
    // Connection errors surface on the commands and as `onChange`; the event itself would only repeat them.
    this.redis.on('error', () => {});
  }

  /** Calls `listener` when the connection becomes ready (`true`) or is lost (`false`). */
  onChange(listener: (ready: boolean) => void): void {
    this.redis.on('ready', () => listener(true));
    this.redis.on('close', () => listener(false));
  }

  /** Whether Redis answers a PING now (false at once while disconnected, or after the command timeout). */
  async ping(): Promise<boolean> {
    return this.redis.ping().then(
      () => true,
      () => false,
    );
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
