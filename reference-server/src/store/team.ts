import type { Kysely } from 'kysely';
import type { Role } from './accounts';
import type { Database, MembershipInvitationRow } from './schema';

type Db = Kysely<Database>;

export interface MemberRow {
  account_id: number;
  email: string;
  role: Role;
  created_at: number;
}

/** The workspace's active members, oldest first, with their accounts' emails. */
export function workspaceMembers(db: Db, workspaceId: number): Promise<MemberRow[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select(['memberships.account_id', 'accounts.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.workspace_id', '=', workspaceId)
    .where('memberships.active', '=', 1)
    .orderBy('memberships.id')
    .execute();
}

export function activeMember(db: Db, workspaceId: number, accountId: number): Promise<MemberRow | undefined> {
  return db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select(['memberships.account_id', 'accounts.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.workspace_id', '=', workspaceId)
    .where('memberships.account_id', '=', accountId)
    .where('memberships.active', '=', 1)
    .executeTakeFirst();
}

export async function countOwners(db: Db, workspaceId: number): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('active', '=', 1)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setMemberRole(db: Db, workspaceId: number, accountId: number, role: Role): Promise<void> {
  await db.updateTable('memberships').set({ role }).where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).execute();
}

/** Removal keeps the row, inactive: a later invitation reactivates it. */
export async function deactivateMember(db: Db, workspaceId: number, accountId: number): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ active: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('account_id', '=', accountId)
    .execute();
}

export function workspaceInvitations(db: Db, workspaceId: number): Promise<MembershipInvitationRow[]> {
  return db.selectFrom('membership_invitations').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export function insertInvitation(
  db: Db,
  values: { workspaceId: number; email: string; role: Role; invitedBy: number; now: number },
): Promise<MembershipInvitationRow> {
  return db
    .insertInto('membership_invitations')
    .values({
      workspace_id: values.workspaceId,
      email: values.email,
      role: values.role,
      invited_by_account_id: values.invitedBy,
      created_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the workspace's invitation; answers the removed row, undefined when it was not there. */
export function deleteInvitation(db: Db, workspaceId: number, id: number): Promise<MembershipInvitationRow | undefined> {
  return db
    .deleteFrom('membership_invitations')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function invitationsForEmail(db: Db, email: string): Promise<MembershipInvitationRow[]> {
  return db.selectFrom('membership_invitations').selectAll().where('email', '=', email).orderBy('id').execute();
}

/** The ids of the workspace's programs: a team change is recorded in each one's audit log. */
export async function programIdsOfWorkspace(db: Db, workspaceId: number): Promise<number[]> {
  const rows = await db.selectFrom('programs').select('id').where('workspace_id', '=', workspaceId).orderBy('id').execute();
  return rows.map((r) => r.id);
}
