import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { fail } from '../errors/service-error';

/** §Limits: requests per minute, and what they are counted per. */
export const buckets = {
  click: { limit: 60, per: 'ip' },
  lead: { limit: 30, per: 'ip' },
  /** Sale and refund share one bucket (120 combined). */
  money: { limit: 120, per: 'key' },
  readiness: { limit: 30, per: 'key' },
  cli: { limit: 60, per: 'key' },
  /**
   * `/cli/auth/*` take no credential (§Authentication), so they are the `/cli/*` limit counted per client IP
   * whatever `Authorization` arrives: counted per Bearer value, a made-up token per request escaped the limit.
   */
  cliAuth: { limit: 60, per: 'ip' },
} as const satisfies Record<string, { limit: number; per: 'ip' | 'key' }>;
export type BucketName = keyof typeof buckets;

export const windowMs = 60_000;

/** Where window counters live: memory for one process, Redis when several share the limits (§Limits). */
export interface RateLimitStore {
  /** Counts one request against `key` in the window that ends at `windowEnd`; returns the count so far. */
  hit(key: string, windowEnd: number): Promise<number>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { windowEnd: number; count: number }>();

  async hit(key: string, windowEnd: number): Promise<number> {
    const current = this.counters.get(key);
    if (current && current.windowEnd === windowEnd) return ++current.count;
    if (this.counters.size > 100_000) this.evictBefore(windowEnd);
    this.counters.set(key, { windowEnd, count: 1 });
    return 1;
  }

  private evictBefore(windowEnd: number): void {
    for (const [key, value] of this.counters) if (value.windowEnd < windowEnd) this.counters.delete(key);
  }

  async reset(): Promise<void> {
    this.counters.clear();
  }

  async close(): Promise<void> {}
}

/** The API key counts for key buckets (hashed: the key itself is never kept); no key falls back to the IP. */
function subject(request: FastifyRequest, per: 'ip' | 'key'): string {
  if (per === 'key') {
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (token) return `key:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
  }
  return `ip:${request.ip}`;
}

/**
 * Fixed one-minute windows on the injected clock. Runs before the body is read or the route runs, so a
 * refused request records nothing (§Rate-limit response). Headers go on every response of these routes.
 */
export function registerRateLimits(app: FastifyInstance, store: RateLimitStore, clock: Clock): void {
  app.addHook('onRequest', async (request, reply) => {
    const name = request.routeOptions.config?.rateLimit;
    if (!name) return;
    const bucket = buckets[name];
    const now = clock.now();
    const windowEnd = Math.floor(now / windowMs) * windowMs + windowMs;
    const count = await store.hit(`${name}:${subject(request, bucket.per)}`, windowEnd);
    const resetSeconds = Math.ceil(windowEnd / 1000);
    reply.header('X-RateLimit-Limit', bucket.limit);
    reply.header('X-RateLimit-Remaining', Math.max(0, bucket.limit - count));
    reply.header('X-RateLimit-Reset', resetSeconds);
    if (count > bucket.limit) {
      const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
      throw fail('rateLimited', {
        extra: { status: 429, retry_after_seconds: retryAfter },
        headers: { 'Retry-After': retryAfter },
      });
    }
  });
}
