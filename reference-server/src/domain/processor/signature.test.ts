import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifyStripeSignature } from './signature';

const stripe = new Stripe('sk_test_x');
const secret = 'whsec_test_secret_for_signature_tests';
const now = Date.UTC(2025, 5, 1, 12, 0, 0);
const nowSeconds = Math.floor(now / 1000);
const payload = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: { object: { id: 'cs_1' } } }, null, 2);

const sign = (body: string, timestamp = nowSeconds, key = secret) =>
  stripe.webhooks.generateTestHeaderString({ payload: body, secret: key, timestamp });

describe('verifyStripeSignature', () => {
  it('accepts a header made by the official stripe package', () => {
    expect(verifyStripeSignature(payload, sign(payload), [secret], now)).toBe('valid');
  });

  it('agrees with stripe.webhooks.constructEvent on the same header', () => {
    const header = sign(payload);
    expect(() => stripe.webhooks.constructEvent(payload, header, secret, 300, undefined, now)).not.toThrow();
    expect(verifyStripeSignature(payload, header, [secret], now)).toBe('valid');
  });

  it('refuses a body changed after signing, even by whitespace', () => {
    const header = sign(payload);
    expect(verifyStripeSignature(JSON.stringify(JSON.parse(payload)), header, [secret], now)).toBe('invalid');
  });

  it('refuses a header signed with another secret', () => {
    expect(verifyStripeSignature(payload, sign(payload, nowSeconds, 'whsec_other'), [secret], now)).toBe('invalid');
  });

  it('reports a missing or blank header as missing', () => {
    expect(verifyStripeSignature(payload, undefined, [secret], now)).toBe('missing');
    expect(verifyStripeSignature(payload, '  ', [secret], now)).toBe('missing');
  });

  it('refuses malformed headers', () => {
    const v1 = sign(payload).split(',')[1]!;
    for (const header of ['garbage', `t=${nowSeconds}`, v1, `t=abc,${v1}`, `t=${nowSeconds},v1=zz`]) {
      expect(verifyStripeSignature(payload, header, [secret], now), header).toBe('invalid');
    }
  });

  it('never accepts the v0 scheme', () => {
    const v0 = createHmac('sha256', secret).update(`${nowSeconds}.${payload}`).digest('hex');
    expect(verifyStripeSignature(payload, `t=${nowSeconds},v0=${v0}`, [secret], now)).toBe('invalid');
  });

  it('accepts when any one of several v1 signatures matches (secret roll-over)', () => {
    const good = sign(payload).split(',')[1]!;
    const other = sign(payload, nowSeconds, 'whsec_old').split(',')[1]!;
    expect(verifyStripeSignature(payload, `t=${nowSeconds},${other},${good}`, [secret], now)).toBe('valid');
    expect(verifyStripeSignature(payload, `t=${nowSeconds},${other}`, [secret], now)).toBe('invalid');
  });

  it('allows 5 minutes of age and refuses older or further-ahead timestamps', () => {
    expect(verifyStripeSignature(payload, sign(payload, nowSeconds - 300), [secret], now)).toBe('valid');
    expect(verifyStripeSignature(payload, sign(payload, nowSeconds - 301), [secret], now)).toBe('stale');
    expect(verifyStripeSignature(payload, sign(payload, nowSeconds + 300), [secret], now)).toBe('valid');
    expect(verifyStripeSignature(payload, sign(payload, nowSeconds + 301), [secret], now)).toBe('stale');
  });

  it('checks the signature before the age, so a forged stale header is invalid, not stale', () => {
    expect(verifyStripeSignature(payload, sign(payload, nowSeconds - 3600, 'whsec_other'), [secret], now)).toBe('invalid');
  });
});
