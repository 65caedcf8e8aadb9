import { fail } from '../../errors/service-error';
import { activeRoleOnProgram, type Role } from '../../store/accounts';
import { findProgramById } from '../../store/programs';
import type { Account, Program } from '../../store/schema';
import type { DomainContext } from '../context';

/**
 * spec/rules.md "Dashboard routes": the signed-in account needs an active workspace membership on the program (from the path,
 * or `program_id` in the body); without one → 403. A program id that names no program answers the same 403, word
 * for word: spec/rules.md "Errors/Status codes" keeps 404 for a sale to refund or a CLI login session, and a distinct answer would
 * let anyone signed in enumerate program ids.
 */
export async function requireMembership(
  deps: Pick<DomainContext, 'db'>,
  account: Account,
  programId: number,
): Promise<{ program: Program; role: Role }> {
  // The membership query joins the program, so an unknown id has no role; the program is read only for a member.
  const role = await activeRoleOnProgram(deps.db, account.id, programId);
  const program = role && (await findProgramById(deps.db, programId));
  if (!role || !program) throw fail('dashboardNotMember');
  return { program, role };
}
