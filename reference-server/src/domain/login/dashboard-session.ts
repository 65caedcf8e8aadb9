import { fail } from '../../errors/service-error';
import { findAccountById } from '../../store/accounts';
import type { Account } from '../../store/schema';
import { deleteDashboardSession, findDashboardSession, insertDashboardSession } from '../../store/sessions';
import type { LoginContext } from './context';
import { dashboardSessionMs } from './lifetimes';
import { hashToken, newOpaqueToken } from './opaque-token';

/** Signs an account in to the dashboard; returns the opaque cookie value (stored only hashed). */
export async function createDashboardSession(
  deps: Pick<LoginContext, 'store' | 'clock'>,
  accountId: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = newOpaqueToken('svc_sess_');
  const now = deps.clock.now();
  const expiresAt = now + dashboardSessionMs;
  await insertDashboardSession(deps.store.db, { tokenHash: hashToken(token), accountId, now, expiresAt });
  return { token, expiresAt };
}

/**
 * spec/rules.md "Dashboard routes": the credential is the signed-in session cookie, nothing else (a Bearer program key is not
 * one). No or an expired session → 401; a suspended account → 403 `ACCOUNT_BLOCKED`.
 */
export async function requireDashboardAccount(
  deps: Pick<LoginContext, 'store' | 'clock'>,
  sessionToken: string | undefined,
): Promise<Account> {
  if (!sessionToken) throw fail('dashboardSignInRequired');
  const session = await findDashboardSession(deps.store.db, hashToken(sessionToken));
  if (!session || session.expires_at <= deps.clock.now()) throw fail('dashboardSignInRequired');
  const account = await findAccountById(deps.store.db, session.account_id);
  if (!account) throw fail('dashboardSignInRequired');
  if (account.blocked === 1) throw fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } });
  return account;
}

export async function endDashboardSession(deps: Pick<LoginContext, 'store'>, sessionToken: string): Promise<void> {
  await deleteDashboardSession(deps.store.db, hashToken(sessionToken));
}
