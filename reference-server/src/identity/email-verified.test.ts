import { describe, expect, it } from 'vitest';
import { emailVerified } from './email-verified';

describe('emailVerified', () => {
  it.each([true, 'true'])('counts %j as verified, with or without SVC_OIDC_EMAILS_VERIFIED', (claim) => {
    expect(emailVerified(claim, false)).toBe(true);
    expect(emailVerified(claim, true)).toBe(true);
  });

  it.each([false, 'false', 'False', 'TRUE', 'yes', 1, 0, null, {}])('refuses %j even with SVC_OIDC_EMAILS_VERIFIED=1', (claim) => {
    expect(emailVerified(claim, true)).toBe(false);
    expect(emailVerified(claim, false)).toBe(false);
  });

  it('lets SVC_OIDC_EMAILS_VERIFIED=1 decide only when the claim is absent', () => {
    expect(emailVerified(undefined, true)).toBe(true);
    expect(emailVerified(undefined, false)).toBeUndefined();
    expect(emailVerified(undefined, undefined)).toBeUndefined();
  });
});
