/** Who the identity provider says signed in (OpenID Connect ID token claims). */
export interface VerifiedIdentity {
  /** `iss`: accounts are keyed by issuer + subject. */
  issuer: string;
  /** `sub`. */
  subject: string;
  /** `email`, when the provider sent one. */
  email: string | undefined;
  /** `email_verified`; undefined when the provider does not say. */
  emailVerified: boolean | undefined;
}

/**
 * The OpenID Connect issuer as the sign-in rules see it (implemented with openid-client and jose in
 * `src/identity/`). Each method throws `IdentityProviderError` when the provider refuses or cannot be reached.
 */
export interface IdentityProvider {
  /** The authorization-code request (PKCE S256) to send the browser to. */
  authorizationUrl(request: { state: string; nonce: string; codeChallenge: string }): Promise<URL>;
  /** Exchanges the code at the token endpoint and validates the ID token (signature, iss, aud, exp, nonce). */
  exchangeCode(callback: { url: URL; state: string; nonce: string; codeVerifier: string }): Promise<VerifiedIdentity>;
  /**
   * Verifies an ID token against the issuer's JWKS (asymmetric algorithms only), issued at most `maxAgeSeconds`
   * before `nowMs` and carrying `nonce`; undefined when it does not verify.
   */
  verifyIdToken(token: string, check: { nowMs: number; nonce: string; maxAgeSeconds: number }): Promise<VerifiedIdentity | undefined>;
}

export class IdentityProviderError extends Error {
  constructor(
    readonly reason: 'refused' | 'unreachable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'IdentityProviderError';
  }
}
