import type * as Jose from 'jose';
import type * as Oidc from 'openid-client';
import { emailVerified } from './email-verified';
import { IdentityProviderError, type IdentityProvider, type VerifiedIdentity } from '../domain/login/identity-provider';

export interface OidcSettings {
  /** `SVC_OIDC_ISSUER`. */
  issuer: string;
  /** `SVC_OIDC_CLIENT_ID`: also the `aud` every ID token must carry. */
  clientId: string;
  /** `SVC_OIDC_CLIENT_SECRET` (client_secret_basic at the token endpoint). */
  clientSecret: string;
  /** `${PUBLIC_URL}/auth/callback`, registered at the issuer. */
  redirectUri: string;
  /** `SVC_OIDC_EMAILS_VERIFIED=1`: an email without an `email_verified` claim counts as verified (`email-verified.ts`). */
  emailsVerified?: boolean | undefined;
}

/** Asymmetric algorithms only: `none` and HS* would let anyone who knows (or guesses) a shared value mint tokens. */
const asymmetricAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Scopes: `openid` and `email` are required (the account's email comes from the claim). */
export const oidcScope = 'openid email profile';

/**
 * openid-client and jose, loaded by the first sign-in rather than on import: a server without `SVC_OIDC_*` never
 * loads them (test/start-up/drivers.test.ts).
 */
let libraries: Promise<[typeof Oidc, typeof Jose]> | undefined;
const oidcLibraries = () => (libraries ??= Promise.all([import('openid-client'), import('jose')]));

/** Plain-HTTP issuers only on this machine (a local identity provider in development and tests). */
const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * The OpenID Connect issuer through openid-client 6 (discovery, authorization code + PKCE S256, token exchange and
 * ID token validation) and jose (ID tokens sent to `POST /api/v1/cli/auth/callback`, checked against the issuer's
 * JWKS). Discovery runs on first use and is retried after a failure, so the server starts while the issuer is down.
 */
export function openIdProvider(settings: OidcSettings): IdentityProvider {
  const issuerUrl = new URL(settings.issuer);
  const insecure = isLoopback(issuerUrl) && issuerUrl.protocol === 'http:';
  let discovered: Promise<Oidc.Configuration> | undefined;
  let jwks: ReturnType<typeof Jose.createRemoteJWKSet> | undefined;

  const configuration = () => {
    discovered ??= oidcLibraries()
      .then(([oidc]) =>
        oidc.discovery(
          issuerUrl,
          settings.clientId,
          settings.clientSecret,
          undefined,
          insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
        ),
      )
      .catch((cause: unknown) => {
        discovered = undefined;
        throw new IdentityProviderError('unreachable', `OpenID Connect discovery of ${settings.issuer} failed`, { cause });
      });
    return discovered;
  };

  return {
    async authorizationUrl({ state, nonce, codeChallenge }) {
      const [oidc] = await oidcLibraries();
      return oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: settings.redirectUri,
        scope: oidcScope,
        state,
        nonce,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
    },

    async exchangeCode({ url, state, nonce, codeVerifier }) {
      const config = await configuration();
      const [oidc] = await oidcLibraries();
      try {
        const tokens = await oidc.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error('no ID token');
        const identity = identityOf(claims, settings);
        if (identity.email !== undefined) return identity;
        // A conformant issuer may keep scope claims out of the ID token when it also issues an access token
        // (OpenID Connect Core section 5.4): then they come from UserInfo, for the same subject.
        const info = await oidc.fetchUserInfo(config, tokens.access_token, identity.subject);
        return {
          ...identity,
          email: typeof info.email === 'string' ? info.email : undefined,
          emailVerified: emailVerified(info.email_verified, settings.emailsVerified),
        };
      } catch (cause) {
        throw new IdentityProviderError('refused', 'the authorization code exchange failed', { cause });
      }
    },

    async verifyIdToken(token, { nowMs, nonce, maxAgeSeconds }) {
      const metadata = (await configuration()).serverMetadata();
      if (!metadata.jwks_uri) throw new IdentityProviderError('unreachable', `${settings.issuer} publishes no jwks_uri`);
      const [, { createRemoteJWKSet, jwtVerify }] = await oidcLibraries();
      jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri));
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer: metadata.issuer,
          audience: settings.clientId,
          algorithms: asymmetricAlgorithms,
          requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
          maxTokenAge: maxAgeSeconds,
          currentDate: new Date(nowMs),
        });
        return payload.nonce === nonce ? identityOf(payload, settings) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

function identityOf(claims: Jose.JWTPayload | Oidc.IDToken, settings: OidcSettings): VerifiedIdentity {
  if (typeof claims.iss !== 'string' || typeof claims.sub !== 'string') throw new Error('ID token without iss or sub');
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : undefined,
    emailVerified: emailVerified(claims.email_verified, settings.emailsVerified),
  };
}
