import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Role } from '../../store/accounts';
import { decideCommission, findCommissionInProgram } from '../../store/commissions';
import type { Kysely } from 'kysely';
import type { Commission, Database, Program } from '../../store/schema';
import { characterCount } from '../programs/fields';
import type { DomainDeps } from '../deps';
import type { Actor } from '../audit/actor';
import { positiveId } from '../partners/fields';
import { recordAudit } from '../audit/record';
import { commissionWireStatus } from './status';

export type CommissionWire = components['schemas']['Commission'];

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function commissionView(row: Commission): CommissionWire {
  return {
    id: row.id,
    partner_id: row.partner_id,
    sale_id: row.sale_id,
    amount_cents: Number(row.amount_cents),
    currency: row.currency,
    status: commissionWireStatus(row),
    created_at: iso(row.created_at) as string,
    paid_at: iso(row.paid_at),
    reversed_at: iso(row.reversed_at),
    decided_by_account_id: row.decided_by_account_id === null ? null : Number(row.decided_by_account_id),
    decided_at: iso(row.decided_at),
    decline_reason: row.decline_reason,
  };
}

interface DecisionInput {
  program: Program;
  role: Role;
  by: Actor;
  commissionId: unknown;
}

/**
 * An owner approves a commission: `held` → `due` now (the lifecycle's running hold, `pending`, will end here too).
 * Idempotent: a `due` commission answers as it is; paid, reversed or declined answer 409 with their status.
 */
export async function approveCommission(deps: Pick<DomainDeps, 'db' | 'clock'>, input: DecisionInput): Promise<CommissionWire> {
  const current = await commissionToDecide(deps, input);
  if (commissionWireStatus(current) === 'due') return commissionView(current);
  const now = deps.clock.now();
  const decided = await deps.db.transaction().execute(async (trx) => {
    const row = await decideCommission(trx, current.id, { from: ['held'], to: 'pending', by: input.by.accountId, now });
    if (row) await recordDecision(trx, input, 'commission.approved', current, row, now);
    return row;
  });
  return decided ? commissionView(decided) : settled(deps, input.program, current.id, 'due');
}

/**
 * An owner declines a commission with a `reason` (1 to 500 characters): `held` or `due` → `declined`, never paid
 * and in no figure. Idempotent; paid or reversed answer 409 with their status.
 */
export async function declineCommission(
  deps: Pick<DomainDeps, 'db' | 'clock'>,
  input: DecisionInput & { body: Record<string, unknown> },
): Promise<CommissionWire> {
  const reason = typeof input.body.reason === 'string' ? input.body.reason.trim() : '';
  if (reason.length < 1 || characterCount(reason) > 500 || reason.includes('\0')) throw fail('commissionDeclineReasonInvalid');
  const current = await commissionToDecide(deps, input);
  if (current.status === 'declined') return commissionView(current);
  const now = deps.clock.now();
  const decided = await deps.db.transaction().execute(async (trx) => {
    const row = await decideCommission(trx, current.id, { from: ['held', 'pending'], to: 'declined', reason, by: input.by.accountId, now });
    if (row) await recordDecision(trx, input, 'commission.declined', current, row, now, reason);
    return row;
  });
  return decided ? commissionView(decided) : settled(deps, input.program, current.id, 'declined');
}

/** The decision's audit entry, in its transaction: the status as read before (the UPDATE's condition held it) → after. */
function recordDecision(
  trx: Kysely<Database>,
  input: DecisionInput,
  action: 'commission.approved' | 'commission.declined',
  before: Commission,
  after: Commission,
  now: number,
  reason?: string,
): Promise<void> {
  return recordAudit(trx, {
    programId: input.program.id,
    actor: input.by,
    action,
    target: `commission:${after.id}`,
    details: {
      partner_id: after.partner_id,
      amount_cents: Number(after.amount_cents),
      currency: after.currency,
      status: { from: commissionWireStatus(before), to: commissionWireStatus(after) },
    },
    reason: reason ?? null,
    now,
  });
}

async function commissionToDecide(deps: Pick<DomainDeps, 'db'>, input: DecisionInput): Promise<Commission> {
  if (input.role !== 'owner') throw fail('commissionDecisionOwnerOnly');
  const id = positiveId(input.commissionId, 'commissionIdInvalid');
  const row = await findCommissionInProgram(deps.db, input.program.id, id);
  if (!row) throw fail('commissionNotFound');
  return row;
}

/**
 * When the conditional UPDATE changed nothing: the row as it is now — the wanted status (a racing call decided the
 * same: idempotent) or 409 naming the status it has.
 */
async function settled(deps: Pick<DomainDeps, 'db'>, program: Program, id: number, wanted: 'due' | 'declined'): Promise<CommissionWire> {
  const now = await findCommissionInProgram(deps.db, program.id, id);
  if (!now) throw fail('commissionNotFound');
  const status = commissionWireStatus(now);
  if (status !== wanted) throw fail('commissionStatusConflict', { details: { status } });
  return commissionView(now);
}
