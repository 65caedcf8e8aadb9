import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
  /**
   * Not a route's bucket: 401s of the key-counted routes, per client IP. Past it the address is refused before
   * any key is looked at, so invented keys (each its own key bucket) cannot be tried without limit.
   */
  authFailures: { limit: 30, per: 'ip' },
} as const satisfies Record<string, { limit: number; per: 'ip' | 'key' }>;
export type BucketName = keyof typeof buckets;

export const windowMs = 60_000;

/** Where window counters live: memory for one process, Redis when several share the limits (§Limits). */
export interface RateLimitStore {
  /** Counts one request against `key` in the window that ends at `windowEnd`; returns the count so far. */
  hit(key: string, windowEnd: number): Promise<number>;
  /** The count so far, without counting. */
  peek(key: string, windowEnd: number): Promise<number>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
}

/** The API key counts for key buckets (hashed: the key itself is never kept); no key falls back to the IP. */
function subject(request: FastifyRequest, per: 'ip' | 'key'): string {
  const token = per === 'key' ? bearerToken(request) : '';
  return token ? `key:${createHash('sha256').update(token).digest('hex').slice(0, 32)}` : `ip:${request.ip}`;
}

/** A request that would count against a key's own bucket: the ones an invented key could multiply. */
function keyCounted(request: FastifyRequest): boolean {
  const name = request.routeOptions.config?.rateLimit;
  return name !== undefined && buckets[name].per === 'key' && bearerToken(request) !== '';
}

/**
 * Fixed one-minute windows on the injected clock. Runs before the body is read or the route runs, so a
 * refused request records nothing (§Rate-limit response). Headers go on every response of these routes.
 */
export function registerRateLimits(app: FastifyInstance, store: RateLimitStore, clock: Clock): void {
  const windowEndAt = (now: number) => Math.floor(now / windowMs) * windowMs + windowMs;
  const authFailuresKey = (request: FastifyRequest) => `authFailures:ip:${request.ip}`;

  app.addHook('onRequest', async (request, reply) => {
    const name = request.routeOptions.config?.rateLimit;
    if (!name) return;
    const bucket = buckets[name];
    const now = clock.now();
    const windowEnd = windowEndAt(now);
    if (keyCounted(request)) {
      const failures = await store.peek(authFailuresKey(request), windowEnd);
      if (failures >= buckets.authFailures.limit) refuse(reply, buckets.authFailures.limit, failures, windowEnd, now);
    }
    const count = await store.hit(`${name}:${subject(request, bucket.per)}`, windowEnd);
    if (count > bucket.limit) refuse(reply, bucket.limit, count, windowEnd, now);
    setHeaders(reply, bucket.limit, count, windowEnd);
  });

  // A failed authentication on a key-counted route counts against the client's address (finding: invented keys).
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 401 && keyCounted(request)) {
      await store.hit(authFailuresKey(request), windowEndAt(clock.now()));
    }
    return payload;
  });
}

function setHeaders(reply: FastifyReply, limit: number, count: number, windowEnd: number): void {
  reply.header('X-RateLimit-Limit', limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, limit - count));
  reply.header('X-RateLimit-Reset', Math.ceil(windowEnd / 1000));
}

function refuse(reply: FastifyReply, limit: number, count: number, windowEnd: number, now: number): never {
  setHeaders(reply, limit, count, windowEnd);
  const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
  throw fail('rateLimited', {
    extra: { status: 429, retry_after_seconds: retryAfter },
    headers: { 'Retry-After': retryAfter },
  });
}
