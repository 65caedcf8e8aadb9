import type { Program as ProgramWire } from '@svc/types';
import type { Role } from '../../store/accounts';
import { programsOfAccount } from '../../store/accounts';
import type { DomainContext } from '../context';
import { programView } from '../programs/view';

/**
 * spec/rules.md "CLI routes", GET /programs (and the dashboard's program list): every program of the account's workspaces, keys
 * masked, with the account's role.
 */
export async function listAccountPrograms(deps: Pick<DomainContext, 'db'>, accountId: number): Promise<(ProgramWire & { role: Role })[]> {
  const rows = await programsOfAccount(deps.db, accountId);
  return rows.map(({ role, ...program }) => ({ ...programView(program), role }));
}
