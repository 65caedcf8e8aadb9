import { commissionTypes, type CommissionType, type Program as ProgramWire } from '@svc/types';
import { fail, failTemplated } from '../../errors/service-error';
import { findAdvertiserIdOfAccount, findWorkspaceIdOfAdvertiser } from '../../store/accounts';
import type { Account } from '../../store/schema';
import { mayCreateWorkspace, type WorkspaceCreators } from '../programs/creators';
import type { DomainContext } from '../context';
import { rateWithinCap } from '../commissions/limits';
import { createProgram } from '../programs/create-program';
import { programDomain, programName } from '../programs/fields';
import { programView } from '../programs/view';
import { objectBody } from '../../json/fields';

const present = (value: unknown) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/**
 * spec/rules.md "CLI errors", POST /init: the four fields are required, `commission_type` is one of four, `commission_rate` a
 * positive number (a string is rejected), and `advertiser_id`, when sent, must be the signed-in account's. `name` is
 * at most 200 characters and `domain` a host name (Decisions on `CliInitRequest`), checked before anything is stored.
 * Shared by `POST /api/v1/cli/init` and `POST /api/dashboard/programs`. Only an account `SVC_WORKSPACE_CREATORS` lets
 * create workspaces may (403 first, before any field is read; one listed after its first sign-in gets its workspace
 * at its next sign-in). Returns the program with its key in full: the only time it is shown (spec/rules.md "Resources/Program", api_token).
 */
export async function initProgram(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  creators: WorkspaceCreators,
  account: Account,
  body: unknown,
): Promise<ProgramWire> {
  const input = objectBody(body);
  if (!(await mayCreateWorkspace(deps.db, creators, account))) throw fail('workspaceCreateForbidden');
  const advertiserId = await findAdvertiserIdOfAccount(deps.db, account.id);
  const workspaceId = advertiserId === undefined ? undefined : await findWorkspaceIdOfAdvertiser(deps.db, advertiserId);
  if (advertiserId === undefined || workspaceId === undefined) throw fail('initNoAdvertiser');
  if (input.advertiser_id !== undefined && input.advertiser_id !== advertiserId) throw fail('initAdvertiserMismatch');

  const { name, domain, commission_type: type, commission_rate: rate } = input;
  if (![name, domain, type, rate].every(present) || typeof name !== 'string' || typeof domain !== 'string') {
    throw fail('initMissingFields');
  }
  const validName = programName(name);
  const validDomain = programDomain(domain);
  if (typeof type !== 'string' || !(commissionTypes as readonly string[]).includes(type)) {
    throw failTemplated('initCommissionTypeInvalid', [String(type)]);
  }
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) throw fail('initRateInvalid');
  if (!rateWithinCap(type as CommissionType, rate)) throw fail('initRateTooLarge');

  const created = await createProgram(deps, {
    workspaceId,
    advertiserId,
    name: validName,
    domain: validDomain,
    commissionType: type as CommissionType,
    commissionRate: rate,
  });
  return programView(created.program, created.apiToken);
}
