import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Role } from '../../store/accounts';
import { decideCommission, findCommissionInProgram, type CommissionRow } from '../../store/commissions';
import type { Commission, Program } from '../../store/schema';
import { characterCount } from '../programs/fields';
import type { DomainDeps } from '../deps';
import type { Actor } from '../audit/actor';
import { positiveId } from '../partners/fields';
import { commissionWireStatus } from './status';
import { queueCommissionUpdated } from './updated-event';

export type CommissionWire = components['schemas']['Commission'];

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A commission on the wire at `now` (its status reads the clock); `transaction_id` is its sale's, if any. */
export function commissionView(row: Commission, transactionId: string | null, now: number): CommissionWire {
  return {
    id: row.id,
    partner_id: row.partner_id,
    sale_id: row.sale_id,
    transaction_id: transactionId,
    kind: row.kind,
    amount_cents: Number(row.amount_cents),
    currency: row.currency,
    status: commissionWireStatus(row, now),
    due_at: iso(row.due_at) as string,
    created_at: iso(row.created_at) as string,
    paid_at: iso(row.paid_at),
    payout_id: null,
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
 * An owner approves a commission: `held`, or `pending` with its hold running, → `due` now (`due_at` = now).
 * Idempotent: a `due` commission answers as it is; paid, reversed or declined answer 409 with their status.
 */
export async function approveCommission(deps: Pick<DomainDeps, 'db' | 'clock'>, input: DecisionInput): Promise<CommissionWire> {
  const current = await commissionToDecide(deps, input);
  const now = deps.clock.now();
  const before = commissionWireStatus(current, now);
  if (before === 'due') return commissionView(current, current.transaction_id, now);
  const decided = await deps.db.transaction().execute(async (trx) => {
    const row = await decideCommission(trx, current.id, { from: ['held', 'pending'], pendingInHold: true, to: 'pending', by: input.by.accountId, now });
    if (row) await queueCommissionUpdated(trx, row, before, now);
    return row;
  });
  return decided ? commissionView(decided, current.transaction_id, now) : settled(deps, input.program, current.id, 'due');
}

/**
 * An owner declines a commission with a `reason` (1 to 500 characters): `pending`, `held` or `due` → `declined`,
 * never paid and in no figure. Idempotent; paid or reversed answer 409 with their status.
 */
export async function declineCommission(
  deps: Pick<DomainDeps, 'db' | 'clock'>,
  input: DecisionInput & { body: Record<string, unknown> },
): Promise<CommissionWire> {
  const reason = typeof input.body.reason === 'string' ? input.body.reason.trim() : '';
  if (reason.length < 1 || characterCount(reason) > 500 || reason.includes('\0')) throw fail('commissionDeclineReasonInvalid');
  const current = await commissionToDecide(deps, input);
  const now = deps.clock.now();
  if (current.status === 'declined') return commissionView(current, current.transaction_id, now);
  const before = commissionWireStatus(current, now);
  const decided = await deps.db.transaction().execute(async (trx) => {
    const row = await decideCommission(trx, current.id, { from: ['held', 'pending'], to: 'declined', reason, by: input.by.accountId, now });
    if (row) await queueCommissionUpdated(trx, row, before, now);
    return row;
  });
  return decided ? commissionView(decided, current.transaction_id, now) : settled(deps, input.program, current.id, 'declined');
}

async function commissionToDecide(deps: Pick<DomainDeps, 'db'>, input: DecisionInput): Promise<CommissionRow> {
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
async function settled(
  deps: Pick<DomainDeps, 'db' | 'clock'>,
  program: Program,
  id: number,
  wanted: 'due' | 'declined',
): Promise<CommissionWire> {
  const row = await findCommissionInProgram(deps.db, program.id, id);
  if (!row) throw fail('commissionNotFound');
  const now = deps.clock.now();
  const status = commissionWireStatus(row, now);
  if (status !== wanted) throw fail('commissionStatusConflict', { details: { status } });
  return commissionView(row, row.transaction_id, now);
}
