import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ipHash } from './ip';

describe('ipHash', () => {
  // Customers' rows keep this hash (`click_ip`), and a later lead's is compared with it: it must never change.
  it('is the first 32 hex digits of SHA-256 over the prefixed address', () => {
    const expected = createHash('sha256').update('svc-risk-ip:203.0.113.7').digest('hex').slice(0, 32);
    expect(ipHash('203.0.113.7')).toBe(expected);
    expect(ipHash('2001:db8::1')).toBe(createHash('sha256').update('svc-risk-ip:2001:db8::1').digest('hex').slice(0, 32));
  });

  it('keeps nothing of no address', () => {
    expect(ipHash(undefined)).toBeUndefined();
    expect(ipHash('')).toBeUndefined();
  });
});
