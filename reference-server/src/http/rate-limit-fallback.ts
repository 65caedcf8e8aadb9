import type { FastifyBaseLogger } from 'fastify';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit';
import { RedisRateLimitStore, redisWaits, type RedisRateLimitStoreOptions } from './rate-limit-redis';

/** How often Redis is asked again while it is down (a PING, answered or refused at once). */
export const redisProbeMs = 1_000;

/** The shared counters, as the fallback uses them (RedisRateLimitStore). */
export interface SharedCounters extends RateLimitStore {
  ping(): Promise<boolean>;
  onChange(listener: (ready: boolean) => void): void;
}

type State = 'starting' | 'up' | 'down';

/**
 * Degrade, do not die: counters live in Redis while it answers and in this process's memory while it does not, so
 * tracking goes on through a Redis outage with each process counting its own clients (limits per process, not per
 * fleet, until Redis is back). No request waits for a dead Redis: while it is known down the memory store answers
 * at once, and a command that fails (or times out, rate-limit-redis.ts `redisWaits`) marks it down and is counted
 * in memory. Redis is asked again every `redisProbeMs` and on every reconnection; the first PING answered puts the
 * shared counters back. One warning when Redis goes away (at start-up too), one info line when it is back.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  private state: State = 'starting';
  private probe: NodeJS.Timeout | undefined;
  private closed = false;
  /** Resolves when the start-up is decided: Redis answered, or its connection failed. */
  private readonly decided: Promise<void>;
  private decide = () => {};
  private readonly local = new MemoryRateLimitStore();

  constructor(
    private readonly shared: SharedCounters,
    private readonly log: FastifyBaseLogger,
  ) {
    this.decided = new Promise((resolve) => (this.decide = resolve));
    shared.onChange((ready) => (ready ? void this.check() : this.down()));
    this.probe = setInterval(() => void (this.state !== 'up' && this.check()), redisProbeMs);
    this.probe.unref();
  }

  /** Whether the counters are in Redis now. */
  get usingRedis(): boolean {
    return this.state === 'up';
  }

  async hit(key: string, windowEnd: number): Promise<number> {
    return this.either((store) => store.hit(key, windowEnd));
  }

  async peek(key: string, windowEnd: number): Promise<number> {
    return this.either((store) => store.peek(key, windowEnd));
  }

  async reset(): Promise<void> {
    await this.local.reset();
    await this.either((store) => store.reset());
  }

  async ping(): Promise<boolean> {
    const answered = await this.shared.ping();
    // Still connecting at start-up is no outage yet: the connection's own failure says so when it is one.
    if (!answered && this.state === 'up') this.down();
    return answered;
  }

  /**
   * Before listening: waits for Redis to answer (or fail) at most its connect timeout, so a healthy Redis counts
   * the first requests too; a Redis not up yet is warned about and the server starts anyway.
   */
  async connect(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.decided, new Promise((resolve) => (timer = setTimeout(resolve, redisWaits.connectTimeoutMs)))]);
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.decide();
    clearInterval(this.probe);
    await this.shared.close();
  }

  private async either<T>(run: (store: RateLimitStore) => Promise<T>): Promise<T> {
    if (this.state !== 'up') return run(this.local);
    try {
      return await run(this.shared);
    } catch (cause) {
      this.down(cause);
      return run(this.local);
    }
  }

  private async check(): Promise<void> {
    if (this.closed || this.state === 'up' || !(await this.shared.ping())) return;
    if (this.state === 'down') this.log.info('Redis is reachable again: rate limits are counted in Redis again');
    this.state = 'up';
    this.decide();
  }

  private down(cause?: unknown): void {
    if (this.closed || this.state === 'down') return;
    this.state = 'down';
    this.decide();
    const reason = cause instanceof Error ? cause.message : 'no connection';
    this.log.warn(
      `Redis is unreachable (${reason}): rate limits are counted in this process until it is back; tracking goes on (docs/deploying.md, "PostgreSQL and Redis")`,
    );
  }
}

/** The rate-limit store of a server with `REDIS_URL`: Redis, falling back to memory while Redis is away. */
export function redisRateLimits(url: string, options: RedisRateLimitStoreOptions, log: FastifyBaseLogger): FallbackRateLimitStore {
  return new FallbackRateLimitStore(new RedisRateLimitStore(url, options), log);
}
