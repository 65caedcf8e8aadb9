/**
 * Whether the issuer vouches for the email: `email_verified` counts only as `true` (or the string `"true"`, as
 * some issuers send it). Any other value (`false`, `"false"`, `null`, a number) is not verified, whatever the
 * operator set. Only an absent claim falls back to `SVC_OIDC_EMAILS_VERIFIED=1` (an issuer that releases verified
 * emails only and never says so); without it, an absent claim is unknown (`undefined`), which is refused too.
 */
export function emailVerified(claim: unknown, emailsVerified: boolean | undefined): boolean | undefined {
  if (claim === undefined) return emailsVerified ? true : undefined;
  return claim === true || claim === 'true';
}
