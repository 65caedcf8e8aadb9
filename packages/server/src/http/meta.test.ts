import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readMeta } from './meta';

describe('readMeta', () => {
  it('reads the request id and the rate-limit headers', () => {
    const headers = new Headers({
      'x-request-id': 'abc',
      'x-ratelimit-limit': '120',
      'x-ratelimit-remaining': '7',
      'x-ratelimit-reset': '1700000000',
    });
    expect(readMeta(headers, 'sent')).toEqual({ requestId: 'abc', rateLimit: { limit: 120, remaining: 7, reset: 1_700_000_000 } });
  });

  it('falls back to the id the SDK sent and leaves rateLimit undefined without the headers', () => {
    expect(readMeta(new Headers({ 'x-ratelimit-limit': '60' }), 'sent')).toEqual({ requestId: 'sent', rateLimit: undefined });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('42', now)).toBe(42);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent and malformed values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
