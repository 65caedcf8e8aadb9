/** Rate-limit headers of a response (spec/rules.md "Limits"): the bucket's limit, what is left, and when it resets. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix timestamp in seconds of the window reset. */
  reset: number;
}

/** What every result and every error carries, whatever the outcome (spec/rules.md "Request ids", spec/rules.md "Limits"). */
export interface ResponseMeta {
  /** The `X-Request-ID` of the attempt: the server's echo, or the id the SDK sent when no response came back. */
  requestId: string;
  /** `undefined` when the response had no rate-limit headers (or there was no response). */
  rateLimit: RateLimit | undefined;
}

export function readMeta(headers: Headers, sentRequestId: string): ResponseMeta {
  const n = (name: string) => Number(headers.get(`x-ratelimit-${name}`) ?? NaN);
  const rateLimit = { limit: n('limit'), remaining: n('remaining'), reset: n('reset') };
  return {
    requestId: headers.get('x-request-id') ?? sentRequestId,
    rateLimit: Object.values(rateLimit).some(Number.isNaN) ? undefined : rateLimit,
  };
}

/** `Retry-After` in seconds: delta-seconds or an HTTP-date (RFC 9110 section 10.2.3). */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - now) / 1000;
  return Number.isNaN(seconds) ? undefined : Math.max(0, seconds);
}
