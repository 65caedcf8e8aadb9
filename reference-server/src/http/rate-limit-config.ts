import { ConfigError } from '../config-error';
import type { BucketName } from './rate-limit';

/**
 * The names `SVC_RATE_LIMITS` takes, as spec/rules.md "Limits" names the routes, and the buckets each sets: `sale` is the bucket
 * sale and refund share; `cli` is the `/cli/*` limit, counted per key and, on the keyless `/cli/auth/*`, per IP.
 */
export const limitNames = {
  click: ['click'],
  lead: ['lead'],
  sale: ['money'],
  readiness: ['readiness'],
  cli: ['cli', 'cliAuth'],
} as const satisfies Record<string, readonly BucketName[]>;

/** Per-minute limits that replace spec/rules.md "Limits"' defaults, by bucket. */
export type LimitOverrides = Partial<Record<BucketName, number>>;

/** A limit past this is a typo, not a limit (and stays a safe integer in every counter). */
const maxPerMinute = 1_000_000;

/**
 * `SVC_RATE_LIMITS`: unset keeps spec/rules.md "Limits"; `off` removes the limits (benchmarks); `lead=300,click=600` raises or
 * lowers the named routes' limits, the others keeping theirs. Anything else stops the start with one line naming the
 * variable.
 */
export function readRateLimits(value: string | undefined): { rateLimits: boolean; rateLimitOverrides: LimitOverrides } {
  const text = (value ?? '').trim();
  if (text === 'off') return { rateLimits: false, rateLimitOverrides: {} };
  const overrides: LimitOverrides = {};
  for (const pair of text === '' ? [] : text.split(',')) {
    const [name = '', count = '', ...rest] = pair.split('=').map((part) => part.trim());
    const buckets = Object.hasOwn(limitNames, name) ? limitNames[name as keyof typeof limitNames] : undefined;
    if (!buckets || rest.length > 0) {
      throw new ConfigError(
        `SVC_RATE_LIMITS: unknown limit ${JSON.stringify(pair.trim())}; use off, or name=perMinute pairs with names ${Object.keys(limitNames).join(', ')} (e.g. lead=300)`,
      );
    }
    const perMinute = /^\d+$/.test(count) ? Number(count) : NaN;
    if (!(perMinute >= 1 && perMinute <= maxPerMinute)) {
      throw new ConfigError(
        `SVC_RATE_LIMITS: ${name} must be a whole number of requests per minute from 1 to ${maxPerMinute}; got ${JSON.stringify(count)}`,
      );
    }
    for (const bucket of buckets) overrides[bucket] = perMinute;
  }
  return { rateLimits: true, rateLimitOverrides: overrides };
}
