import { createHash, randomBytes } from 'node:crypto';
import { fail } from '../../errors/service-error';
import { findAccountById, findAdvertiserIdOfAccount } from '../../store/accounts';
import type { Account } from '../../store/schema';
import {
  awaitConfirmation,
  completeLoginSession,
  consumeLoginSession,
  findLoginSession,
  findLoginSessionToConfirm,
  insertLoginSession,
  insertLoginToken,
  type LoginSession,
} from '../../store/sessions';
import { accountForIdentity } from './account-for-identity';
import { issuerOf, type LoginContext } from './context';
import { verifyIdToken } from './id-token';
import { loginSessionMs, loginTokenMs, pollIntervalSeconds } from './lifetimes';
import { hashToken, newOpaqueToken } from './opaque-token';
import { newUserCode } from './user-code';

export interface StartedLogin {
  state: string;
  user_code: string;
  sign_in_url: string;
  expires_at: string;
  poll_interval_seconds: number;
}

/**
 * spec/rules.md "CLI routes", auth/start: a login session whose `state` the sign-in page carries back to the callback. Only the
 * state's hash is stored (it is a bearer secret until the token is handed out); `user_code` is what the person at
 * the terminal compares with the code the browser shows before pressing Authorize.
 */
export async function startCliLogin(deps: LoginContext): Promise<StartedLogin> {
  deps.faults.check('cli');
  const state = randomBytes(24).toString('base64url');
  const userCode = newUserCode();
  const now = deps.clock.now();
  await insertLoginSession(deps.store.db, { stateHash: hashToken(state), userCode, now });
  const url = new URL('/auth/sign-in', deps.publicUrl);
  url.searchParams.set('state', state);
  return {
    state,
    user_code: userCode,
    sign_in_url: url.toString(),
    expires_at: new Date(now + loginSessionMs).toISOString(),
    poll_interval_seconds: pollIntervalSeconds,
  };
}

const isExpired = (session: LoginSession, now: number) => now - session.created_at > loginSessionMs;

/**
 * spec/rules.md "CLI errors", POST /auth/callback: completes the session named by `state` for the account of a verified
 * id_token. With OpenID Connect configured only the issuer's tokens count (its JWKS, asymmetric algorithms,
 * `aud` = our client id); otherwise, with dev sign-in on, the server's own dev tokens; otherwise none. A token that
 * does not verify leaves the session pending. A suspended account is refused with `details.code` =
 * `ACCOUNT_BLOCKED` (spec/rules.md "Authentication" rule 4).
 */
export async function completeCliLogin(deps: LoginContext, state: unknown, idToken: unknown): Promise<void> {
  if (typeof state !== 'string' || state === '' || typeof idToken !== 'string' || idToken === '') {
    throw fail('callbackMissingFields');
  }
  const session = await openLoginSession(deps, state);
  const account = await accountOfIdToken(deps, idToken, state);
  if (account.blocked === 1) throw fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } });
  deps.faults.check('cli');
  const completed = await completeLoginSession(deps.store.db, session.id, account.id, deps.clock.now());
  if (!completed) throw fail('callbackSessionNotFound');
}

/**
 * The nonce an issuer's ID token must carry to complete the login named by `state` (spec/openapi.yaml,
 * cliAuthCallback): base64url(SHA-256(state)). It binds the token to this one login, so an ID token captured
 * elsewhere (another login, the dashboard's sign-in) cannot complete someone else's CLI login.
 */
export const cliLoginNonce = (state: string): string => createHash('sha256').update(state).digest('base64url');

async function accountOfIdToken(deps: LoginContext, idToken: string, state: string) {
  if (deps.identityProvider) {
    const check = { nowMs: deps.clock.now(), nonce: cliLoginNonce(state), maxAgeSeconds: loginSessionMs / 1000 };
    const identity = await deps.identityProvider.verifyIdToken(idToken, check);
    if (!identity) throw fail('callbackInvalidIdToken');
    return accountForIdentity(deps, identity);
  }
  const claims = deps.devSignIn ? await verifyIdToken(await issuerOf(deps), idToken) : undefined;
  const account = claims && (await findAccountById(deps.store.db, claims.accountId));
  if (!account) throw fail('callbackInvalidIdToken');
  return account;
}

/**
 * The login session named by `state`, still waiting for a sign-in (404 when unknown or used, 400 when expired).
 * The sign-in page checks it before creating anything, so a refused sign-in records nothing (spec/rules.md "Errors").
 */
export async function openLoginSession(deps: Pick<LoginContext, 'store' | 'clock'>, state: string): Promise<LoginSession> {
  const session = await findLoginSession(deps.store.db, hashToken(state));
  if (!session || session.completed_at !== null) throw fail('callbackSessionNotFound');
  if (isExpired(session, deps.clock.now())) throw fail('callbackSessionExpired');
  return session;
}

export interface PendingAuthorization {
  /** Shown beside Authorize: the person compares it with the code `svc login` printed. */
  userCode: string;
  /** One-time token the Authorize form carries back (so only this page can press it). */
  confirmToken: string;
}

/**
 * After the browser sign-in, the CLI login waits for the person to press Authorize next to the user code: a victim
 * who opens an attacker's sign-in link sees a code that is not on their own terminal and can stop there.
 */
export async function requestCliAuthorization(deps: LoginContext, session: LoginSession, accountId: number): Promise<PendingAuthorization> {
  const confirmToken = newOpaqueToken('svc_confirm_');
  if (!(await awaitConfirmation(deps.store.db, session.id, accountId, hashToken(confirmToken)))) throw fail('callbackSessionNotFound');
  return { userCode: session.user_code ?? '', confirmToken };
}

/** The Authorize button: completes the CLI login it was shown for; returns the account (the page names it). */
export async function authorizeCliLogin(deps: LoginContext, confirmToken: unknown): Promise<Account> {
  if (typeof confirmToken !== 'string' || confirmToken === '') throw fail('callbackSessionNotFound');
  const session = await findLoginSessionToConfirm(deps.store.db, hashToken(confirmToken));
  if (!session || session.completed_at !== null || session.pending_account_id === null) throw fail('callbackSessionNotFound');
  if (isExpired(session, deps.clock.now())) throw fail('callbackSessionExpired');
  const account = await findAccountById(deps.store.db, session.pending_account_id);
  if (!account) throw fail('callbackSessionNotFound');
  if (account.blocked === 1) throw fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } });
  deps.faults.check('cli');
  if (!(await completeLoginSession(deps.store.db, session.id, account.id, deps.clock.now()))) throw fail('callbackSessionNotFound');
  return account;
}

export type PollResult =
  | { status: 'pending' | 'expired' }
  | { status: 'complete'; token: string; token_expires_at: string; account_id: number; advertiser_id?: number; email: string };

/**
 * spec/rules.md "CLI routes", auth/poll: the login token is minted and returned only on the first poll after sign-in;
 * later polls answer `Session already consumed`; a session older than 5 minutes answers `expired`.
 */
export async function pollCliLogin(deps: LoginContext, state: unknown): Promise<PollResult> {
  if (typeof state !== 'string' || state === '') throw fail('pollMissingState');
  const session = await findLoginSession(deps.store.db, hashToken(state));
  if (!session) throw fail('pollSessionNotFound');
  if (session.consumed_at !== null) throw fail('pollSessionConsumed');
  const now = deps.clock.now();
  if (isExpired(session, now)) return { status: 'expired' };
  if (session.completed_at === null || session.account_id === null) return { status: 'pending' };
  deps.faults.check('cli');

  const account = await findAccountById(deps.store.db, session.account_id);
  if (!account) throw fail('pollSessionNotFound');
  const token = newOpaqueToken('svc_login_');
  const expiresAt = now + loginTokenMs;
  // One transaction: the conditional update decides which of two racing polls hands the token out, and a
  // session is never marked consumed without its token stored.
  const handedOut = await deps.store.db.transaction().execute(async (trx) => {
    if (!(await consumeLoginSession(trx, session.id, now))) return false;
    await insertLoginToken(trx, { tokenHash: hashToken(token), accountId: account.id, now, expiresAt });
    return true;
  });
  if (!handedOut) throw fail('pollSessionConsumed');
  const advertiserId = await findAdvertiserIdOfAccount(deps.store.db, account.id);
  return {
    status: 'complete',
    token,
    token_expires_at: new Date(expiresAt).toISOString(),
    account_id: account.id,
    ...(advertiserId === undefined ? {} : { advertiser_id: advertiserId }),
    email: account.email,
  };
}
