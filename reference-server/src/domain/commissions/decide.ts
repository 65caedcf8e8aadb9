import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Role } from '../../store/accounts';
import type { Kysely } from 'kysely';
import { decideCommission, findCommissionInProgram, type CommissionRow } from '../../store/commissions';
import { lockRow } from '../../store/row-lock';
import type { Commission, Database, Program } from '../../store/schema';
import { characterCount } from '../programs/fields';
import type { DomainContext } from '../context';
import type { Actor } from '../audit/actor';
import { positiveId } from '../partners/fields';
import { recordAudit } from '../audit/record';
import { commissionWireStatus } from './status';
import { queueCommissionUpdated } from './updated-event';
import { banPartner } from '../risk/ban';
import { findPartnerById } from '../../store/partners';

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
    payout_id: row.payout_id === null ? null : Number(row.payout_id),
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
export async function approveCommission(deps: Pick<DomainContext, 'db' | 'clock'>, input: DecisionInput): Promise<CommissionWire> {
  const current = await commissionToDecide(deps, input);
  return decide(deps, input, current, { wanted: 'due', action: 'commission.approved' }, (trx, now) =>
    decideCommission(trx, current.id, { from: ['held', 'pending'], pendingInHold: true, to: 'pending', by: input.by.accountId, now }),
  );
}

/**
 * An owner declines a commission with a `reason` (1 to 500 characters): `pending`, `held` or `due` → `declined`,
 * never paid and in no figure. Idempotent; paid or reversed answer 409 with their status (and ban nothing). With
 * `ban: true` the partner is banned in the same transaction (domain/risk/ban.ts).
 */
export async function declineCommission(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  input: DecisionInput & { body: Record<string, unknown> },
): Promise<CommissionWire> {
  const reason = typeof input.body.reason === 'string' ? input.body.reason.trim() : '';
  if (reason.length < 1 || characterCount(reason) > 500 || reason.includes('\0')) throw fail('commissionDeclineReasonInvalid');
  const ban = input.body.ban ?? false;
  if (typeof ban !== 'boolean') throw fail('commissionBanInvalid');
  const current = await commissionToDecide(deps, input);
  const banned = async (trx: Kysely<Database>, now: number) => {
    const partner = (await findPartnerById(trx, current.partner_id))!;
    await banPartner(trx, { programId: input.program.id, partner, by: input.by, reason, now });
  };
  return decide(
    deps,
    input,
    current,
    { wanted: 'declined', action: 'commission.declined', reason, ...(ban ? { then: banned } : {}) },
    (trx, now) => decideCommission(trx, current.id, { from: ['held', 'pending'], to: 'declined', reason, by: input.by.accountId, now }),
  );
}

async function commissionToDecide(deps: Pick<DomainContext, 'db'>, input: DecisionInput): Promise<CommissionRow> {
  if (input.role !== 'owner') throw fail('commissionDecisionOwnerOnly');
  const id = positiveId(input.commissionId, 'commissionIdInvalid');
  const row = await findCommissionInProgram(deps.db, input.program.id, id);
  if (!row) throw fail('commissionNotFound');
  return row;
}

/**
 * One decision, on the partner's row lock (as payouts and adjustments are): each decision reads the commission as
 * the last one left it (`from` is read inside the lock), so racing calls change it once, send one
 * `commission.updated` and write one audit entry, all in the change's transaction. Already `wanted`: answered as it
 * is (idempotent, nothing recorded); a status the change may not leave: 409 naming it.
 */
async function decide(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  input: DecisionInput,
  current: CommissionRow,
  decision: {
    wanted: 'due' | 'declined';
    action: 'commission.approved' | 'commission.declined';
    reason?: string;
    /** What else the change does in its transaction, also when the commission was already as wanted (a ban). */
    then?: (trx: Kysely<Database>, now: number) => Promise<void>;
  },
  change: (trx: Kysely<Database>, now: number) => Promise<Commission | undefined>,
): Promise<CommissionWire> {
  let now = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'partners', current.partner_id);
    // The clock is read once the lock is held: a call that waited sees the time after the one before it, so an
    // approval it made (`due_at` = then) already reads as due and is not made twice.
    now = deps.clock.now();
    const fresh = (await findCommissionInProgram(trx, current.program_id, current.id))!;
    const before = commissionWireStatus(fresh, now);
    if (before === decision.wanted) {
      await decision.then?.(trx, now);
      return fresh;
    }
    const changed = await change(trx, now);
    if (!changed) throw fail('commissionStatusConflict', { details: { status: before } });
    await queueCommissionUpdated(trx, changed, before, now);
    await recordAudit(trx, {
      programId: input.program.id,
      actor: input.by,
      action: decision.action,
      target: `commission:${changed.id}`,
      details: {
        partner_id: changed.partner_id,
        amount_cents: Number(changed.amount_cents),
        currency: changed.currency,
        status: { from: before, to: commissionWireStatus(changed, now) },
      },
      reason: decision.reason ?? null,
      now,
    });
    await decision.then?.(trx, now);
    return changed;
  });
  return commissionView(row, current.transaction_id, now);
}
