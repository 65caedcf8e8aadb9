import type { LeadAuth, Program as ProgramWire } from '@svc/types';
import { fail } from '../../errors/service-error';
import { allowedOrigins } from '../programs/fields';
import { newProgramKey } from '../programs/keys';
import type { Role } from '../../store/accounts';
import type { Kysely } from 'kysely';
import { programForChange, updateProgram } from '../../store/dashboard-programs';
import { allowedOriginsOf } from '../../store/programs';
import { lockRow } from '../../store/row-lock';
import type { Database, Program, ProgramUpdate } from '../../store/schema';
import type { Actor } from '../audit/actor';
import { changedFields } from '../audit/changes';
import { recordAudit } from '../audit/record';
import { unbindProcessorAccount } from '../../store/processor-connections';
import type { DomainContext } from '../context';
import { programView } from '../programs/view';
import { maxAmountCents } from '../commissions/limits';
import { kindsOf, riskKinds, type RiskKind } from '../risk/kinds';

const leadAuths: readonly LeadAuth[] = ['server_required', 'browser_allowed'];

/**
 * Program settings a member edits in the dashboard: attribution window (spec/rules.md "Attribution rules"), lead auth mode
 * (spec/rules.md "States and transitions"), allowed origins (spec/rules.md "Authentication" rule 6; bounded in `domain/programs/fields.ts`), the
 * commission hold period in days (new commissions only: each keeps the `due_at` it was created with) and the
 * payout minimum. All fields are checked before any change.
 */
export async function updateSettings(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  body: Record<string, unknown>,
  by: Actor,
): Promise<ProgramWire> {
  const update: ProgramUpdate = {};
  if (body.attribution_window_days !== undefined) {
    const days = body.attribution_window_days;
    if (!Number.isSafeInteger(days) || (days as number) < 1 || (days as number) > 365) throw fail('dashboardWindowInvalid');
    update.attribution_window_days = days as number;
  }
  if (body.lead_auth !== undefined) {
    if (!leadAuths.includes(body.lead_auth as LeadAuth)) throw fail('dashboardLeadAuthInvalid');
    update.lead_auth = body.lead_auth as LeadAuth;
  }
  if (body.allowed_origins !== undefined) {
    const origins = allowedOrigins(body.allowed_origins);
    update.allowed_origins = origins === null ? null : JSON.stringify(origins);
  }
  if (body.commission_hold_days !== undefined) {
    const days = body.commission_hold_days;
    if (!Number.isSafeInteger(days) || (days as number) < 0 || (days as number) > 365) throw fail('programHoldDaysInvalid');
    update.commission_hold_days = days as number;
  }
  if (body.min_payout_cents !== undefined) {
    const cents = body.min_payout_cents;
    if (!Number.isSafeInteger(cents) || (cents as number) < 0 || (cents as number) > maxAmountCents) throw fail('programMinPayoutInvalid');
    update.min_payout_cents = cents as number;
  }
  Object.assign(update, riskSettings(body));
  if (Object.keys(update).length === 0) throw fail('dashboardNothingToUpdate');
  const fields = Object.keys(update) as (keyof Program)[];
  const updated = await changeProgram(
    deps,
    program.id,
    async (trx, before) => {
      const after = await updateProgram(trx, program.id, update);
      // Only the fields sent, so never the key's hash; allowed_origins as the list it stores.
      return { after, details: changedFields(settingsOf(before), settingsOf(after), fields) };
    },
    { actor: by, action: 'program.updated' },
  );
  return programView(updated);
}

const settingsOf = (row: Program) => ({ ...row, allowed_origins: allowedOriginsOf(row), risk_hold_kinds: kindsOf(row.risk_hold_kinds) });

/** The risk settings sent (spec, `dashboardUpdateProgram` **Decision** on risk signals), each checked. */
function riskSettings(body: Record<string, unknown>): ProgramUpdate {
  const update: ProgramUpdate = {};
  if (body.risk_hold_kinds !== undefined) {
    const kinds = body.risk_hold_kinds;
    const known = (k: unknown): k is RiskKind => riskKinds.includes(k as RiskKind);
    if (!Array.isArray(kinds) || !kinds.every(known) || new Set(kinds).size !== kinds.length) throw fail('programRiskHoldKindsInvalid');
    update.risk_hold_kinds = riskKinds.filter((k) => kinds.includes(k)).join(',');
  }
  if (body.click_flood_threshold !== undefined) {
    const n = body.click_flood_threshold;
    if (!Number.isSafeInteger(n) || (n as number) < 1 || (n as number) > 10_000) throw fail('programClickFloodInvalid');
    update.click_flood_threshold = n as number;
  }
  if (body.fast_conversion_seconds !== undefined) {
    const n = body.fast_conversion_seconds;
    if (!Number.isSafeInteger(n) || (n as number) < 0 || (n as number) > 3600) throw fail('programFastConversionInvalid');
    update.fast_conversion_seconds = n as number;
  }
  return update;
}

/**
 * Runs a change of the program in one transaction, the program's row held and read first (so `before` is what the
 * change replaces), and records its audit entry there when the details say something changed.
 */
async function changeProgram<T>(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  programId: number,
  change: (trx: Kysely<Database>, before: Program) => Promise<{ after: T; details: Record<string, unknown> }>,
  audit: { actor: Actor; action: 'program.updated' | 'program.key_regenerated' | 'processor.disconnected' },
): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'programs', programId);
    const { after, details } = await change(trx, await programForChange(trx, programId));
    if (Object.keys(details).length > 0) {
      await recordAudit(trx, { programId, ...audit, target: `program:${programId}`, details, now: deps.clock.now() });
    }
    return after;
  });
}

/**
 * spec/rules.md "Authentication" rule 1: only a workspace owner regenerates the key. The old key stops working at once, and a
 * pending rotation notice is cleared (the new key is the rotation). The new key is returned in full, once.
 */
export async function regenerateKey(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  role: Role,
  by: Actor,
): Promise<ProgramWire> {
  if (role !== 'owner') throw fail('dashboardOwnerOnly');
  const key = newProgramKey();
  const update = { api_key_hash: key.hash, api_key_last4: key.last4, key_marked_at: null, key_rotate_by: null };
  const updated = await changeProgram(
    deps,
    program.id,
    async (trx, before) => {
      const after = await updateProgram(trx, program.id, update);
      // The last four characters only: the key and its hash never enter the log.
      return { after, details: { api_key_last4: { from: before.api_key_last4, to: after.api_key_last4 } } };
    },
    { actor: by, action: 'program.key_regenerated' },
  );
  return programView(updated, key.key);
}

const processorAccountPattern = /^acct_[A-Za-z0-9]{1,64}$/;

/**
 * spec/rules.md "What the service does", item 7: the dashboard disconnects the program's Stripe account. **Decision** (spec,
 * `dashboardConnectProcessor`): an account id typed here binds nothing; only "Connect with Stripe" (OAuth, which
 * proves control of the account; `processor/connect/`) binds one. Owners only: the bound account decides which
 * payments pay commissions.
 */
export async function connectProcessor(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  role: Role,
  account: unknown,
  by: Actor,
): Promise<string | null> {
  if (role !== 'owner') throw fail('dashboardProcessorOwnerOnly');
  if (typeof account === 'string' && processorAccountPattern.test(account)) throw fail('dashboardProcessorUseConnect');
  if (account !== null) throw fail('dashboardProcessorInvalid');
  await changeProgram(
    deps,
    program.id,
    async (trx, before) => {
      await unbindProcessorAccount(trx, program.id);
      const was = before.processor_account;
      return { after: null, details: was === null ? {} : { processor_account: { from: was, to: null } } };
    },
    { actor: by, action: 'processor.disconnected' },
  );
  return null;
}
