import { fail } from '../../errors/service-error';
import { activeRoleOnProgram, type Role } from '../../store/accounts';
import { findProgramById } from '../../store/programs';
import type { Account, Program } from '../../store/schema';
import type { DomainDeps } from '../deps';

/**
 * §Dashboard routes: the signed-in account needs an active workspace membership on the program (from the path,
 * or `program_id` in the body). No such program → 404; not a member → 403.
 */
export async function requireMembership(
  deps: Pick<DomainDeps, 'db'>,
  account: Account,
  programId: number,
): Promise<{ program: Program; role: Role }> {
  const program = await findProgramById(deps.db, programId);
  if (!program) throw fail('dashboardProgramNotFound');
  const role = await activeRoleOnProgram(deps.db, account.id, programId);
  if (!role) throw fail('dashboardNotMember');
  return { program, role };
}
