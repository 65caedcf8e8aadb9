import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { hashKey, parseBearer } from '../domain/programs/keys';
import { fail } from '../errors/service-error';
import type { LimitOverrides } from './rate-limit-config';

/** spec/rules.md "Limits": requests per minute, and what they are counted per. */
export const buckets = {
  click: { limit: 60, per: 'ip' },
  lead: { limit: 30, per: 'ip' },
  /** Sale and refund share one bucket (120 combined). */
  money: { limit: 120, per: 'key' },
  readiness: { limit: 30, per: 'key' },
  cli: { limit: 60, per: 'key' },
  /**
   * `/cli/auth/*` take no credential (spec/rules.md "Authentication"), so they are the `/cli/*` limit counted per client IP
   * whatever `Authorization` arrives: counted per Bearer value, a made-up token per request escaped the limit.
   */
  cliAuth: { limit: 60, per: 'ip' },
  /**
   * Not a route's bucket: 401s of the key-counted routes, per client IP. Past it the address is refused before
   * any key is looked at, so invented keys (each its own key bucket) cannot be tried without limit.
   */
  authFailures: { limit: 30, per: 'ip' },
  /**
   * Not a route's bucket: every request of the dashboard and account-management routes (`managementRoute`), per
   * client IP, all of them together (spec/openapi.yaml, `ManagementRateLimited`).
   */
  management: { limit: 300, per: 'ip' },
  /**
   * Not a route's bucket: the writes (any method but GET, HEAD, OPTIONS) of those routes, per signed-in account, so
   * one account's sessions and login tokens share one bucket.
   */
  accountWrites: { limit: 60, per: 'account' },
} as const satisfies Record<string, { limit: number; per: 'ip' | 'key' | 'account' }>;
export type BucketName = keyof typeof buckets;
/** The buckets a route names in its config (`rateLimit`); the others are counted beside them. */
export type RouteBucketName = Exclude<BucketName, 'authFailures' | 'management' | 'accountWrites'>;

export const windowMs = 60_000;

/** Where window counters live: memory for one process, Redis when several share the limits (spec/rules.md "Limits"). */
export interface RateLimitStore {
  /** Counts one request against `key` in the window that ends at `windowEnd`; returns the count so far. */
  hit(key: string, windowEnd: number): Promise<number>;
  /** The count so far, without counting. */
  peek(key: string, windowEnd: number): Promise<number>;
  reset(): Promise<void>;
  close(): Promise<void>;
  /** Whether the shared counter store (Redis) answers now; absent when the counters are this process's only. */
  ping?(): Promise<boolean>;
  /** Waits, bounded, for the shared store's first connection before the server listens; absent: nothing to wait for. */
  connect?(): Promise<void>;
}

function bearerToken(request: FastifyRequest): string {
  const parsed = parseBearer(request.headers.authorization);
  return parsed.kind === 'token' ? parsed.token : '';
}

/** The API key counts for key buckets (hashed: the key itself is never kept); no key falls back to the IP. */
function subject(request: FastifyRequest, per: 'ip' | 'key'): string {
  const token = per === 'key' ? bearerToken(request) : '';
  return token ? `key:${hashKey(token).slice(0, 32)}` : `ip:${request.ip}`;
}

/** A request that would count against a key's own bucket: the ones an invented key could multiply. */
function keyCounted(request: FastifyRequest): boolean {
  const name = request.routeOptions.config?.rateLimit;
  return name !== undefined && buckets[name].per === 'key' && bearerToken(request) !== '';
}

/** Which credential names the account of a management route: its writes are counted per account. */
export type ManagementCredential = 'session' | 'loginToken';

/** The account behind a request's session cookie or login token, while it is valid; nothing otherwise. */
export type AccountOf = (request: FastifyRequest, credential: ManagementCredential) => Promise<number | undefined>;

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The signed-in session routes: the dashboard's JSON routes and the partner view. */
const sessionPrefixes = ['/api/dashboard/', '/api/tracking/', '/api/partner/'];

/**
 * The dashboard and account-management routes (spec/openapi.yaml, `ManagementRateLimited`), decided from the matched
 * route's pattern as the cross-site guard is, so a session route added under these paths is limited without being
 * listed: the session routes (writes counted per account too), the `POST` routes of `/auth/*` (per IP only: no
 * account yet), and routes whose config says `management: 'loginToken'` (the CLI's `/cli/init` and `/cli/programs`).
 */
export function managementRoute(request: FastifyRequest): { credential: ManagementCredential | undefined } | undefined {
  const route = request.routeOptions.url;
  if (route === undefined) return undefined;
  const configured = request.routeOptions.config?.management;
  if (configured) return { credential: configured };
  if (route === '/api/partner' || sessionPrefixes.some((prefix) => route.startsWith(prefix))) return { credential: 'session' };
  if (route.startsWith('/auth/') && !readMethods.has(request.method)) return { credential: undefined };
  return undefined;
}

interface Counted {
  limit: number;
  count: number;
}

/**
 * Fixed one-minute windows on the injected clock. Runs before the body is read or the route runs, so a
 * refused request records nothing (spec/rules.md "Rate-limit response"). Headers go on every response of these routes: on a
 * route counted against several buckets, those of the bucket nearest its limit. `overrides` are the operator's limits
 * (`SVC_RATE_LIMITS`, rate-limit-config.ts); the other buckets keep spec/rules.md "Limits"'.
 */
export function registerRateLimits(
  app: FastifyInstance,
  store: RateLimitStore,
  clock: Clock,
  accountOf: AccountOf,
  overrides: LimitOverrides = {},
): void {
  const limit = (name: BucketName) => overrides[name] ?? buckets[name].limit;
  const windowEndAt = (now: number) => Math.floor(now / windowMs) * windowMs + windowMs;
  const authFailuresKey = (request: FastifyRequest) => `authFailures:ip:${request.ip}`;

  app.addHook('onRequest', async (request, reply) => {
    const name = request.routeOptions.config?.rateLimit;
    const management = managementRoute(request);
    if (!name && !management) return;
    const now = clock.now();
    const windowEnd = windowEndAt(now);
    const counted: Counted[] = [];
    const count = async (key: string, limit: number) => {
      const hits = await store.hit(key, windowEnd);
      if (hits > limit) refuse(reply, limit, hits, windowEnd, now);
      counted.push({ limit, count: hits });
    };
    if (name) {
      if (keyCounted(request)) {
        const failures = await store.peek(authFailuresKey(request), windowEnd);
        if (failures >= limit('authFailures')) refuse(reply, limit('authFailures'), failures, windowEnd, now);
      }
      await count(`${name}:${subject(request, buckets[name].per)}`, limit(name));
    }
    if (management) {
      await count(`management:ip:${request.ip}`, limit('management'));
      if (management.credential && !readMethods.has(request.method)) {
        const accountId = await accountOf(request, management.credential);
        if (accountId !== undefined) await count(`accountWrites:account:${accountId}`, limit('accountWrites'));
      }
    }
    const nearest = counted.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
    setHeaders(reply, nearest.limit, nearest.count, windowEnd);
  });

  // A failed authentication on a key-counted route counts against the client's address (finding: invented keys).
  // A callback hook, not an async one: every limited request runs it, and only a 401 waits (http/request-id.ts).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 401 || !keyCounted(request)) return done(null, payload);
    store.hit(authFailuresKey(request), windowEndAt(clock.now())).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
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

/** Counters kept at most: past it the least recently used one goes (made-up keys cannot grow memory). */
const memoryBucketCap = 100_000;

/**
 * Window counters in this process's memory, bounded as an LRU: a Map iterates in insertion order, so re-inserting
 * a counter on every hit keeps the least recently used first, and evicting it is O(1) — no scan, however many
 * buckets clients invent.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { windowEnd: number; count: number }>();

  constructor(private readonly cap = memoryBucketCap) {}

  async hit(key: string, windowEnd: number): Promise<number> {
    const current = this.counters.get(key);
    const count = current && current.windowEnd === windowEnd ? current.count + 1 : 1;
    this.counters.delete(key);
    this.counters.set(key, { windowEnd, count });
    if (this.counters.size > this.cap) this.counters.delete(this.counters.keys().next().value as string);
    return count;
  }

  async peek(key: string, windowEnd: number): Promise<number> {
    const current = this.counters.get(key);
    return current && current.windowEnd === windowEnd ? current.count : 0;
  }

  /** How many counters are held (tests check the bound). */
  get size(): number {
    return this.counters.size;
  }

  async reset(): Promise<void> {
    this.counters.clear();
  }

  async close(): Promise<void> {}
}
