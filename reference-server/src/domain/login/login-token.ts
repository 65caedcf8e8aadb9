import { fail } from '../../errors/service-error';
import { parseBearer } from '../programs/keys';
import type { CatalogueKey } from '@svc/types';
import { findAccountById } from '../../store/accounts';
import type { Account } from '../../store/schema';
import { findLoginToken } from '../../store/sessions';
import type { LoginContext } from './context';
import { hashToken } from './opaque-token';

/** The two message sets of spec/rules.md "CLI errors", account-session routes. */
const messages = {
  init: { missing: 'initAuthRequired', invalid: 'initTokenInvalid', userGone: 'initUserNotFound' },
  programs: { missing: 'programsAuthRequired', invalid: 'programsTokenInvalid', userGone: 'programsUserNotFound' },
} as const satisfies Record<string, Record<string, CatalogueKey>>;

/**
 * spec/rules.md "Authentication": `/cli/init` and `/cli/programs` take the Bearer login token from the CLI login. A suspended
 * account's token stops working too (403 `ACCOUNT_BLOCKED`, spec/rules.md "Authentication" rule 4).
 */
export async function requireLoginToken(
  deps: Pick<LoginContext, 'store' | 'clock'>,
  authorization: string | undefined,
  route: keyof typeof messages,
): Promise<Account> {
  const set = messages[route];
  const parsed = parseBearer(authorization);
  if (parsed.kind !== 'token') throw fail(set.missing);
  const token = await findLoginToken(deps.store.db, hashToken(parsed.token));
  if (!token || token.expires_at <= deps.clock.now()) throw fail(set.invalid);
  const account = await findAccountById(deps.store.db, token.account_id);
  if (!account) throw fail(set.userGone);
  if (account.blocked === 1) throw fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } });
  return account;
}
