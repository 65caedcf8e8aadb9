import { randomBytes } from 'node:crypto';
import { fail } from '../../errors/service-error';
import { findAccountById, findAdvertiserIdOfAccount } from '../../store/accounts';
import {
  completeLoginSession,
  consumeLoginSession,
  findLoginSession,
  insertLoginSession,
  insertLoginToken,
  type LoginSession,
} from '../../store/sessions';
import { issuerOf, type LoginDeps } from './deps';
import { verifyIdToken } from './id-token';
import { loginSessionMs, loginTokenMs, pollIntervalSeconds } from './lifetimes';
import { hashToken, newOpaqueToken } from './opaque-token';

export interface StartedLogin {
  state: string;
  sign_in_url: string;
  expires_at: string;
  poll_interval_seconds: number;
}

/** §CLI routes, auth/start: a login session whose `state` the sign-in page carries back to the callback. */
export async function startCliLogin(deps: LoginDeps): Promise<StartedLogin> {
  deps.faults.check('cli');
  const state = randomBytes(24).toString('base64url');
  const now = deps.clock.now();
  await insertLoginSession(deps.store.db, state, now);
  const url = new URL('/auth/sign-in', deps.publicUrl);
  url.searchParams.set('state', state);
  return {
    state,
    sign_in_url: url.toString(),
    expires_at: new Date(now + loginSessionMs).toISOString(),
    poll_interval_seconds: pollIntervalSeconds,
  };
}

const isExpired = (session: LoginSession, now: number) => now - session.created_at > loginSessionMs;

/**
 * §CLI errors, POST /auth/callback: completes the session named by `state` for the account of a verified
 * id_token. A suspended account is refused with `details.code` = `ACCOUNT_BLOCKED` (§Authentication rule 4).
 */
export async function completeCliLogin(deps: LoginDeps, state: unknown, idToken: unknown): Promise<void> {
  if (typeof state !== 'string' || state === '' || typeof idToken !== 'string' || idToken === '') {
    throw fail('callbackMissingFields');
  }
  const session = await openLoginSession(deps, state);
  const claims = await verifyIdToken(issuerOf(deps), idToken);
  const account = claims && (await findAccountById(deps.store.db, claims.accountId));
  if (!account) throw fail('callbackInvalidIdToken');
  if (account.blocked === 1) throw fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } });
  deps.faults.check('cli');
  const completed = await completeLoginSession(deps.store.db, session.id, account.id, deps.clock.now());
  if (!completed) throw fail('callbackSessionNotFound');
}

/**
 * The login session named by `state`, still waiting for a sign-in (404 when unknown or used, 400 when expired).
 * The sign-in page checks it before creating anything, so a refused sign-in records nothing (§Errors).
 */
export async function openLoginSession(deps: Pick<LoginDeps, 'store' | 'clock'>, state: string): Promise<LoginSession> {
  const session = await findLoginSession(deps.store.db, state);
  if (!session || session.completed_at !== null) throw fail('callbackSessionNotFound');
  if (isExpired(session, deps.clock.now())) throw fail('callbackSessionExpired');
  return session;
}

export type PollResult =
  | { status: 'pending' | 'expired' }
  | { status: 'complete'; token: string; token_expires_at: string; account_id: number; advertiser_id?: number; email: string };

/**
 * §CLI routes, auth/poll: the login token is minted and returned only on the first poll after sign-in;
 * later polls answer `Session already consumed`; a session older than 5 minutes answers `expired`.
 */
export async function pollCliLogin(deps: LoginDeps, state: unknown): Promise<PollResult> {
  if (typeof state !== 'string' || state === '') throw fail('pollMissingState');
  const session = await findLoginSession(deps.store.db, state);
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
