import { createHash, randomBytes } from 'node:crypto';
import { fail } from '../../errors/service-error';
import type { Account } from '../../store/schema';
import { findLoginSession, type LoginSession } from '../../store/sessions';
import { findSignInAttempt, insertSignInAttempt, useSignInAttempt } from '../../store/sign-in-attempts';
import { accountForIdentity } from './account-for-identity';
import { openLoginSession } from './cli-login';
import type { LoginContext } from './context';
import { IdentityProviderError, type IdentityProvider } from './identity-provider';
import { loginSessionMs, signInAttemptMs } from './lifetimes';
import { hashToken } from './opaque-token';

const random = () => randomBytes(32).toString('base64url');

/** RFC 7636 section 4.2: the S256 challenge of a verifier. */
export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export interface BegunSignIn {
  /** Where to send the browser. */
  authorizationUrl: URL;
  /** Also kept in the browser (cookie), so only the browser that began the sign-in can finish it. */
  state: string;
}

/**
 * `GET /auth/sign-in` with OpenID Connect: a fresh state, nonce and PKCE verifier, kept server-side (only the
 * state's hash is the key), then the issuer's authorization URL. With a CLI login `state`, that login must still be
 * open; it is completed after the callback and the person's Authorize.
 */
export async function beginSignIn(deps: LoginContext, provider: IdentityProvider, cliState: string | undefined): Promise<BegunSignIn> {
  const cliSession = cliState === undefined ? undefined : await openLoginSession(deps, cliState);
  const state = random();
  const nonce = random();
  const codeVerifier = random();
  const authorizationUrl = await withProvider(() =>
    provider.authorizationUrl({ state, nonce, codeChallenge: pkceChallenge(codeVerifier) }),
  );
  await insertSignInAttempt(deps.store.db, {
    stateHash: hashToken(state),
    nonce,
    codeVerifier,
    cliStateHash: cliSession?.state_hash ?? null,
    now: deps.clock.now(),
  });
  return { authorizationUrl, state };
}

export interface FinishedSignIn {
  account: Account;
  /** The CLI login this sign-in was for, if any (still open). */
  cliSession: LoginSession | undefined;
}

/**
 * `GET /auth/callback`: the state must be one this server issued to this browser (`browserState`, from its cookie),
 * unused and fresh; it is used up before the code is exchanged, so a replayed callback is refused. The issuer's
 * refusal, an unverified email or a suspended account end here with nothing created.
 */
export async function finishSignIn(
  deps: LoginContext,
  provider: IdentityProvider,
  callback: { url: URL; state: string | undefined; browserState: string | undefined; error: string | undefined },
): Promise<FinishedSignIn> {
  const { state } = callback;
  if (!state || callback.browserState !== state) throw fail('signInStateInvalid');
  const attempt = await findSignInAttempt(deps.store.db, hashToken(state));
  const now = deps.clock.now();
  if (!attempt || now - attempt.created_at > signInAttemptMs) throw fail('signInStateInvalid');
  if (!(await useSignInAttempt(deps.store.db, attempt.id, now))) throw fail('signInStateInvalid');
  if (callback.error !== undefined) throw fail('signInIssuerRefused');

  const cliSession = attempt.cli_state_hash === null ? undefined : await findLoginSession(deps.store.db, attempt.cli_state_hash);
  if (attempt.cli_state_hash !== null && (!cliSession || cliSession.completed_at !== null)) throw fail('callbackSessionNotFound');
  if (cliSession && now - cliSession.created_at > loginSessionMs) throw fail('callbackSessionExpired');
  const identity = await withProvider(() =>
    provider.exchangeCode({ url: callback.url, state, nonce: attempt.nonce, codeVerifier: attempt.code_verifier }),
  );
  const account = await accountForIdentity(deps, identity);
  return { account, cliSession };
}

/** The provider's failures as the catalogue's sign-in errors (the cause stays for the log). */
async function withProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof IdentityProviderError)) throw error;
    throw fail(error.reason === 'unreachable' ? 'signInIssuerUnreachable' : 'signInIssuerRefused', { cause: error });
  }
}
