import type { Program as ProgramWire } from '@svc/types';
import type { Role } from '../../store/accounts';
import { programsOfAccount } from '../../store/accounts';
import type { DomainDeps } from '../deps';
import { programView } from '../programs/view';

/** §CLI routes, GET /programs: every program of the account's workspaces, keys masked, with the account's role. */
export async function listAccountPrograms(
  deps: DomainDeps,
  accountId: number,
): Promise<(ProgramWire & { role: Role })[]> {
  deps.faults.check('cli');
  const rows = await programsOfAccount(deps.db, accountId);
  return rows.map(({ role, ...program }) => ({ ...programView(program), role }));
}
