import type { components } from '@svc/types';
import type { Kysely } from 'kysely';
import { fail } from '../../errors/service-error';
import { findAccountByEmail, upsertMembership, type Role } from '../../store/accounts';
import { lockRow } from '../../store/row-lock';
import type { Account, Database, MembershipInvitationRow, Program } from '../../store/schema';
import {
  activeMember,
  countOwners,
  deactivateMember,
  deleteInvitation,
  insertInvitation,
  invitationsForEmail,
  programIdsOfWorkspace,
  setMemberRole,
  workspaceInvitations,
  workspaceMembers,
  type MemberRow,
} from '../../store/team';
import { isUniqueViolation } from '../../store/unique-violation';
import { accountActor, type Actor } from '../audit/actor';
import { recordAudit, type AuditAction } from '../audit/record';
import type { DomainContext } from '../context';
import { normaliseEmail } from '../login/dev-sign-in';

type Team = components['schemas']['Team'];
type TeamMember = components['schemas']['TeamMember'];
type TeamInvitation = components['schemas']['TeamInvitation'];
type Deps = Pick<DomainContext, 'db' | 'clock'>;
/** Who acts on the team, as the dashboard route knows them. */
export interface TeamCaller {
  account: Account;
  role: Role;
}

const roles: readonly Role[] = ['owner', 'member'];
const iso = (ms: number) => new Date(ms).toISOString();

/** The workspace's members and pending invitations (spec/openapi.yaml, `dashboardTeam`); any member may read it. */
export async function teamOf(deps: Pick<DomainContext, 'db'>, program: Program): Promise<Team> {
  const [members, invitations] = await Promise.all([
    workspaceMembers(deps.db, program.workspace_id),
    workspaceInvitations(deps.db, program.workspace_id),
  ]);
  return { members: members.map(memberView), invitations: invitations.map(invitationView) };
}

/**
 * Invites an email to the workspace with a role; it stays pending until that email's account signs in
 * (`joinInvitedTeams`). Owners only; an email already on the team or already invited is refused.
 */
export async function inviteMember(
  deps: Deps,
  program: Program,
  caller: TeamCaller,
  body: Record<string, unknown>,
): Promise<TeamInvitation> {
  if (caller.role !== 'owner') throw fail('teamOwnerOnly');
  const email = normaliseEmail(body.email);
  if (!email) throw fail('teamEmailInvalid');
  const role = roleOf(body.role ?? 'member');
  try {
    return await deps.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'workspaces', program.workspace_id);
      await stillOwner(trx, program.workspace_id, caller);
      const account = await findAccountByEmail(trx, email);
      if (account && (await activeMember(trx, program.workspace_id, account.id))) throw fail('teamAlreadyMember');
      const now = deps.clock.now();
      const row = await insertInvitation(trx, { workspaceId: program.workspace_id, email, role, invitedBy: caller.account.id, now });
      await recordTeamAudit(
        trx,
        program.workspace_id,
        { actor: accountActor(caller.account), now },
        'team.invited',
        `invitation:${row.id}`,
        {
          email,
          role,
        },
      );
      return invitationView(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('teamAlreadyInvited');
    throw error;
  }
}

/** Withdraws a pending invitation (owners only). */
export async function cancelInvitation(deps: Deps, program: Program, caller: TeamCaller, id: number): Promise<void> {
  if (caller.role !== 'owner') throw fail('teamOwnerOnly');
  await deps.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'workspaces', program.workspace_id);
    await stillOwner(trx, program.workspace_id, caller);
    const removed = await deleteInvitation(trx, program.workspace_id, id);
    if (!removed) throw fail('teamInvitationNotFound');
    const audit = { actor: accountActor(caller.account), now: deps.clock.now() };
    await recordTeamAudit(trx, program.workspace_id, audit, 'team.invitation_cancelled', `invitation:${id}`, {
      email: removed.email,
      role: removed.role,
    });
  });
}

/** Makes a member an owner or an owner a member (owners only); the last owner stays an owner. */
export async function changeMemberRole(
  deps: Deps,
  program: Program,
  caller: TeamCaller,
  accountId: number,
  body: Record<string, unknown>,
): Promise<TeamMember> {
  if (caller.role !== 'owner') throw fail('teamOwnerOnly');
  const role = roleOf(body.role);
  return deps.db.transaction().execute(async (trx) => {
    // The workspace's row holds team changes one at a time: two owners demoting each other cannot both pass.
    await lockRow(trx, 'workspaces', program.workspace_id);
    await stillOwner(trx, program.workspace_id, caller);
    const member = await activeMember(trx, program.workspace_id, accountId);
    if (!member) throw fail('teamMemberNotFound');
    if (member.role === role) return memberView(member);
    if (member.role === 'owner' && (await countOwners(trx, program.workspace_id)) <= 1) throw fail('teamLastOwner');
    await setMemberRole(trx, program.workspace_id, accountId, role);
    const audit = { actor: accountActor(caller.account), now: deps.clock.now() };
    await recordTeamAudit(trx, program.workspace_id, audit, 'team.role_changed', `account:${accountId}`, {
      email: member.email,
      role: { from: member.role, to: role },
    });
    return memberView({ ...member, role });
  });
}

/** Takes a member off the team (owners only; an owner may leave); the last owner stays. */
export async function removeMember(deps: Deps, program: Program, caller: TeamCaller, accountId: number): Promise<void> {
  if (caller.role !== 'owner') throw fail('teamOwnerOnly');
  await deps.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'workspaces', program.workspace_id);
    await stillOwner(trx, program.workspace_id, caller);
    const member = await activeMember(trx, program.workspace_id, accountId);
    if (!member) throw fail('teamMemberNotFound');
    if (member.role === 'owner' && (await countOwners(trx, program.workspace_id)) <= 1) throw fail('teamLastOwner');
    await deactivateMember(trx, program.workspace_id, accountId);
    const audit = { actor: accountActor(caller.account), now: deps.clock.now() };
    await recordTeamAudit(trx, program.workspace_id, audit, 'team.removed', `account:${accountId}`, {
      email: member.email,
      role: member.role,
    });
  });
}

/**
 * At sign-in: every pending invitation to the account's (verified) email becomes a membership with the invited
 * role, recorded by the account itself, and the invitation is gone. A removed member invited again is reactivated.
 */
export async function joinInvitedTeams(deps: { db: Kysely<Database>; now: number }, account: Account): Promise<void> {
  const pending = await invitationsForEmail(deps.db, account.email);
  for (const invitation of pending) {
    await deps.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'workspaces', invitation.workspace_id);
      // Taken by a sign-in at the same moment: nothing more to do.
      if (!(await deleteInvitation(trx, invitation.workspace_id, invitation.id))) return;
      const existing = await activeMember(trx, invitation.workspace_id, account.id);
      // Already on the team (an owner stays one): the invitation is simply used up.
      if (existing) return;
      await upsertMembership(trx, { workspaceId: invitation.workspace_id, accountId: account.id, role: invitation.role, now: deps.now });
      await recordTeamAudit(
        trx,
        invitation.workspace_id,
        { actor: accountActor(account), now: deps.now },
        'team.joined',
        `account:${account.id}`,
        {
          email: account.email,
          role: invitation.role,
        },
      );
    });
  }
}

/** A positive integer from a path (`accountId`, `invitationId`). */
export function teamPathId(value: unknown, which: 'accountId' | 'invitationId'): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(id) || (id as number) < 1)
    throw fail(which === 'accountId' ? 'teamAccountIdInvalid' : 'teamInvitationIdInvalid');
  return id as number;
}

/**
 * Inside the team change's transaction, once the workspace's row is held: the caller is still an owner (a demotion
 * committed since the request's membership check refuses it).
 */
async function stillOwner(trx: Kysely<Database>, workspaceId: number, caller: TeamCaller): Promise<void> {
  if ((await activeMember(trx, workspaceId, caller.account.id))?.role !== 'owner') throw fail('teamOwnerOnly');
}

function roleOf(value: unknown): Role {
  if (!roles.includes(value as Role)) throw fail('teamRoleInvalid');
  return value as Role;
}

/** The team is the workspace's: each of its programs' audit logs records the change. */
async function recordTeamAudit(
  trx: Kysely<Database>,
  workspaceId: number,
  audit: { actor: Actor; now: number },
  action: Extract<AuditAction, `team.${string}`>,
  target: string,
  details: Record<string, unknown>,
): Promise<void> {
  for (const programId of await programIdsOfWorkspace(trx, workspaceId)) {
    await recordAudit(trx, { programId, ...audit, action, target, details });
  }
}

function memberView(row: MemberRow): TeamMember {
  return { account_id: row.account_id, email: row.email, role: row.role, joined_at: iso(row.created_at) };
}

function invitationView(row: MembershipInvitationRow): TeamInvitation {
  return { id: row.id, email: row.email, role: row.role, invited_at: iso(row.created_at) };
}
