import { fail } from '../../errors/service-error';
import {
  bindIdentity,
  findAccountByEmail,
  findAdvertiserIdOfAccount,
  findAccountByIdentity,
  updateAccountEmail,
} from '../../store/accounts';
import { createAccountWithWorkspace, createBareAccount, createWorkspaceFor } from '../../store/new-account';
import { mayCreateWorkspace } from '../programs/creators';
import { joinInvitedTeams } from '../team/team';
import type { Account } from '../../store/schema';
import { isUniqueViolation } from '../../store/unique-violation';
import type { LoginContext } from './context';
import { normaliseEmail } from './dev-sign-in';
import type { VerifiedIdentity } from './identity-provider';

/**
 * The account an identity signs in as (docs/deploying.md, "Accounts"): keyed by issuer + subject, the email taken
 * from the `email` claim, which must be verified by the issuer (`email_verified: true`, or `SVC_OIDC_EMAILS_VERIFIED`):
 * the email decides which partner records the account sees, so an unverified one could claim another's commissions.
 * An account that exists under the same email without an identity (created by an invitation, the demo seed or test
 * control) is claimed by it. First sign-in creates the account, with its advertiser, workspace and owner membership
 * only when `SVC_WORKSPACE_CREATORS` lets it create one (else it sees only what it is invited to). Refusals create
 * nothing. Once signed in, the account joins the teams that invited its email.
 */
export async function accountForIdentity(
  deps: Pick<LoginContext, 'store' | 'clock' | 'workspaceCreators'>,
  identity: VerifiedIdentity,
): Promise<Account> {
  const account = await signedInAccount(deps, identity);
  // The verified email accepts the team invitations sent to it (domain/team/team.ts).
  await joinInvitedTeams({ db: deps.store.db, now: deps.clock.now() }, account);
  return account;
}

async function signedInAccount(
  deps: Pick<LoginContext, 'store' | 'clock' | 'workspaceCreators'>,
  identity: VerifiedIdentity,
): Promise<Account> {
  if (identity.emailVerified !== true) throw fail('signInEmailUnverified');
  const email = normaliseEmail(identity.email);
  if (!email) throw fail('signInEmailMissing');
  const db = deps.store.db;
  const key = { issuer: identity.issuer, subject: identity.subject };

  const known = await findAccountByIdentity(db, key.issuer, key.subject);
  if (known) {
    const account = refuseBlocked(await followEmail(deps, known, email));
    await workspaceOnceAllowed(deps, account);
    return account;
  }

  const sameEmail = await findAccountByEmail(db, email);
  if (sameEmail) {
    if (sameEmail.oidc_subject !== null) throw fail('signInEmailTaken');
    if (!(await bindIdentity(db, sameEmail.id, key))) throw fail('signInEmailTaken');
    return refuseBlocked(sameEmail);
  }

  try {
    const input = { email, identity: key, now: deps.clock.now() };
    if (await mayCreateWorkspace(db, deps.workspaceCreators, { email })) await createAccountWithWorkspace(db, input);
    else await createBareAccount(db, input);
  } catch (error) {
    // Two first sign-ins at once: the other one created it (or took the email).
    if (!isUniqueViolation(error)) throw error;
  }
  const created = await findAccountByIdentity(db, key.issuer, key.subject);
  if (!created) throw fail('signInEmailTaken');
  return refuseBlocked(created);
}

/** The issuer's email is the account's email; a change that collides with another account keeps the old one. */
async function followEmail(deps: Pick<LoginContext, 'store'>, account: Account, email: string): Promise<Account> {
  if (account.email === email) return account;
  try {
    await updateAccountEmail(deps.store.db, account.id, email);
    return { ...account, email };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return account;
  }
}

/** An account created without a workspace that `SVC_WORKSPACE_CREATORS` now lists gets one at this sign-in. */
async function workspaceOnceAllowed(deps: Pick<LoginContext, 'store' | 'clock' | 'workspaceCreators'>, account: Account): Promise<void> {
  const db = deps.store.db;
  if ((await findAdvertiserIdOfAccount(db, account.id)) !== undefined) return;
  if (!(await mayCreateWorkspace(db, deps.workspaceCreators, account))) return;
  await createWorkspaceFor(db, { accountId: account.id, email: account.email, now: deps.clock.now() });
}

function refuseBlocked(account: Account): Account {
  if (account.blocked === 1) throw fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } });
  return account;
}
