import { fail } from '../../errors/service-error';
import { findAccountByEmail } from '../../store/accounts';
import type { Account } from '../../store/schema';
import { isUniqueViolation } from '../../store/unique-violation';
import type { LoginContext } from './context';
import { createAccountWithWorkspace } from '../../store/new-account';
import { joinInvitedTeams } from '../team/team';

/** A loose shape check: the development identity provider only needs a stable, recognisable address (no NUL: PostgreSQL text cannot hold it). */
const emailPattern = /^[^\s@\0]+@[^\s@\0]+\.[^\s@\0]+$/;

export function normaliseEmail(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const email = raw.trim().toLowerCase();
  return email.length <= 254 && emailPattern.test(email) ? email : undefined;
}

/**
 * The development identity provider: signs in with an email, creating the dev account (with its advertiser,
 * workspace and owner membership) on first use. A suspended account is refused (spec/rules.md "Authentication" rule
 * 4); the account joins the teams that invited its email.
 */
export async function signInDevAccount(deps: Pick<LoginContext, 'store' | 'clock'>, email: string): Promise<Account> {
  let account = await findAccountByEmail(deps.store.db, email);
  if (!account) {
    try {
      await createAccountWithWorkspace(deps.store.db, { email, now: deps.clock.now() });
    } catch (error) {
      // Two first sign-ins at once: the other one created it.
      if (!isUniqueViolation(error)) throw error;
    }
    account = await findAccountByEmail(deps.store.db, email);
  }
  if (!account) throw new Error(`account ${email} vanished after creation`);
  if (account.blocked === 1) throw fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } });
  await joinInvitedTeams({ db: deps.store.db, now: deps.clock.now() }, account);
  return account;
}
