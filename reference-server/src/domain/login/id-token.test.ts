import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { issueIdToken, verifyIdToken } from './id-token';

const issuer = { secret: 'a-secret-of-enough-length-for-hs256-signing', issuer: 'http://svc.test', now: Date.UTC(2026, 0, 1) };

describe('development id_token', () => {
  it('round-trips the account and email', async () => {
    const token = await issueIdToken(issuer, { accountId: 7, email: 'dev@example.test' });
    expect(await verifyIdToken(issuer, token)).toEqual({ accountId: 7, email: 'dev@example.test' });
  });

  it('refuses another issuer, another secret and an expired token', async () => {
    const token = await issueIdToken(issuer, { accountId: 7, email: 'dev@example.test' });
    expect(await verifyIdToken({ ...issuer, issuer: 'http://other.test' }, token)).toBeUndefined();
    expect(await verifyIdToken({ ...issuer, secret: 'another-secret-of-enough-length-for-hs256' }, token)).toBeUndefined();
    expect(await verifyIdToken({ ...issuer, now: issuer.now + 4 * 60_000 }, token)).toBeDefined();
    expect(await verifyIdToken({ ...issuer, now: issuer.now + 6 * 60_000 }, token)).toBeUndefined();
  });

  it('refuses another audience and a token without email', async () => {
    const key = new TextEncoder().encode(issuer.secret);
    const iat = Math.floor(issuer.now / 1000);
    const base = () =>
      new SignJWT({ email: 'x@example.test' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(issuer.issuer)
        .setSubject('7')
        .setIssuedAt(iat)
        .setExpirationTime(iat + 60);
    expect(await verifyIdToken(issuer, await base().setAudience('someone-else').sign(key))).toBeUndefined();
    const noEmail = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer.issuer)
      .setAudience('svc-cli')
      .setSubject('7')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(key);
    expect(await verifyIdToken(issuer, noEmail)).toBeUndefined();
    expect(await verifyIdToken(issuer, await base().setAudience('svc-cli').sign(key))).toEqual({ accountId: 7, email: 'x@example.test' });
  });
});
