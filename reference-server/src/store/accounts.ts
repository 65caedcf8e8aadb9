import type { Kysely } from 'kysely';
import type { Account, Database, Program } from './schema';

type Db = Kysely<Database>;
export type Role = 'owner' | 'member';

export function findAccountById(db: Db, id: number): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAccountByEmail(db: Db, email: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findAdvertiserIdOfAccount(db: Db, accountId: number): Promise<number | undefined> {
  const row = await db.selectFrom('advertisers').select('id').where('account_id', '=', accountId).executeTakeFirst();
  return row?.id;
}

/** The first workspace of an advertiser: where programs created by its account go. */
export async function findWorkspaceIdOfAdvertiser(db: Db, advertiserId: number): Promise<number | undefined> {
  const row = await db.selectFrom('workspaces').select('id').where('advertiser_id', '=', advertiserId).orderBy('id').executeTakeFirst();
  return row?.id;
}

/** The account's active role in the workspace that holds the program, if any. */
export async function activeRoleOnProgram(db: Db, accountId: number, programId: number): Promise<Role | undefined> {
  const row = await db
    .selectFrom('programs')
    .innerJoin('memberships', 'memberships.workspace_id', 'programs.workspace_id')
    .select('memberships.role')
    .where('programs.id', '=', programId)
    .where('memberships.account_id', '=', accountId)
    .where('memberships.active', '=', 1)
    .executeTakeFirst();
  return row?.role;
}

/** Programs of every workspace the account is an active member of, oldest first, with the account's role. */
export function programsOfAccount(db: Db, accountId: number): Promise<(Program & { role: Role })[]> {
  return db
    .selectFrom('programs')
    .innerJoin('memberships', 'memberships.workspace_id', 'programs.workspace_id')
    .selectAll('programs')
    .select('memberships.role')
    .where('memberships.account_id', '=', accountId)
    .where('memberships.active', '=', 1)
    .orderBy('programs.id')
    .execute();
}

/** Adds the account to the workspace, or updates its role and reactivates it. */
export async function upsertMembership(
  db: Db,
  membership: { workspaceId: number; accountId: number; role: Role; now: number },
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({
      workspace_id: membership.workspaceId,
      account_id: membership.accountId,
      role: membership.role,
      active: 1,
      created_at: membership.now,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'account_id']).doUpdateSet({ role: membership.role, active: 1 }))
    .execute();
}

export async function findWorkspaceIdOfProgram(db: Db, programId: number): Promise<number | undefined> {
  const row = await db.selectFrom('programs').select('workspace_id').where('id', '=', programId).executeTakeFirst();
  return row?.workspace_id;
}

/** The account an OpenID Connect identity signs in as (accounts are keyed by issuer + subject). */
export function findAccountByIdentity(db: Db, issuer: string, subject: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('oidc_issuer', '=', issuer).where('oidc_subject', '=', subject).executeTakeFirst();
}

/** Binds an identity to an account that has none yet; false when another sign-in bound one first. */
export async function bindIdentity(db: Db, accountId: number, identity: { issuer: string; subject: string }): Promise<boolean> {
  const result = await db
    .updateTable('accounts')
    .set({ oidc_issuer: identity.issuer, oidc_subject: identity.subject })
    .where('id', '=', accountId)
    .where('oidc_subject', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Follows the identity provider's current email claim. */
export async function updateAccountEmail(db: Db, accountId: number, email: string): Promise<void> {
  await db.updateTable('accounts').set({ email }).where('id', '=', accountId).execute();
}
