import { findDashboardSession, findLoginToken } from '../../store/sessions';
import { parseBearer } from '../programs/keys';
import type { LoginContext } from './context';
import { hashToken } from './opaque-token';

/** The credential a route takes: the dashboard's session cookie, or the CLI's Bearer login token. */
export type AccountCredential = { sessionToken: string | undefined } | { authorization: string | undefined };

/**
 * The account a live dashboard session or CLI login token belongs to, or nothing. Only for counting the account's
 * writes before the route runs (`ManagementRateLimited` in spec/openapi.yaml): the route still authenticates with
 * its own checks and messages (a suspended account is counted here and refused there).
 */
export async function signedInAccountId(
  deps: Pick<LoginContext, 'store' | 'clock'>,
  credential: AccountCredential,
): Promise<number | undefined> {
  const now = deps.clock.now();
  if ('sessionToken' in credential) {
    if (!credential.sessionToken) return undefined;
    const session = await findDashboardSession(deps.store.db, hashToken(credential.sessionToken));
    return session && session.expires_at > now ? session.account_id : undefined;
  }
  const parsed = parseBearer(credential.authorization);
  if (parsed.kind !== 'token') return undefined;
  const token = await findLoginToken(deps.store.db, hashToken(parsed.token));
  return token && token.expires_at > now ? token.account_id : undefined;
}
