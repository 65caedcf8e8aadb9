import { idTokenSeconds } from './lifetimes';

/** The audience of id_tokens the development identity provider issues for the CLI login. */
export const idTokenAudience = 'svc-cli';

export interface IdTokenIssuer {
  /** HS256 secret (`app.svc.secrets.idToken`). */
  secret: string;
  /** `iss`: the server's public URL. */
  issuer: string;
  /** Epoch ms of issue (the server clock, so expiry follows the test clock). */
  now: number;
}

export interface IdTokenClaims {
  accountId: number;
  email: string;
}

/** jose, loaded by the first CLI login rather than on import (start-up: test/start-up/drivers.test.ts). */
const jose = () => import('jose');

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/** Signs the id_token of the reference server's development identity provider (jose, HS256). */
export async function issueIdToken(issuer: IdTokenIssuer, claims: IdTokenClaims): Promise<string> {
  const { SignJWT } = await jose();
  const iat = Math.floor(issuer.now / 1000);
  return new SignJWT({ email: claims.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer.issuer)
    .setAudience(idTokenAudience)
    .setSubject(String(claims.accountId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + idTokenSeconds)
    .sign(keyOf(issuer.secret));
}

/** Verifies signature, issuer, audience and expiry; undefined when any check fails. */
export async function verifyIdToken(issuer: IdTokenIssuer, token: string): Promise<IdTokenClaims | undefined> {
  const { jwtVerify } = await jose();
  try {
    const { payload } = await jwtVerify(token, keyOf(issuer.secret), {
      algorithms: ['HS256'],
      issuer: issuer.issuer,
      audience: idTokenAudience,
      currentDate: new Date(issuer.now),
    });
    const accountId = Number(payload.sub);
    if (!Number.isSafeInteger(accountId) || typeof payload.email !== 'string') return undefined;
    return { accountId, email: payload.email };
  } catch {
    return undefined;
  }
}
