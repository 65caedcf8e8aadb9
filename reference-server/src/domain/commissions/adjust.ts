import { currencies, type Currency } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Role } from '../../store/accounts';
import { insertAdjustment } from '../../store/commissions';
import { lockRow } from '../../store/row-lock';
import type { Program } from '../../store/schema';
import { recordAudit } from '../audit/record';
import type { Actor } from '../audit/actor';
import type { DomainContext } from '../context';
import { partnerOf } from '../partners/partners';
import { characterCount } from '../programs/fields';
import { commissionView, type CommissionWire } from './decide';
import { maxAmountCents } from './limits';

/**
 * An owner records a bonus (positive) or clawback (negative) for a partner: a commission of `kind: adjustment`, no
 * sale, due at once, so in the balance, the list, the CSV and the next payout (a negative one nets there like a
 * refund after payment). Written on the partner's row lock, as payouts are, so a payout running at the same time
 * settles either with it or without it, never half; recorded in the audit log with who and why.
 */
export async function createAdjustment(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  input: { program: Program; role: Role; by: Actor; partnerId: number; body: Record<string, unknown> },
): Promise<CommissionWire> {
  if (input.role !== 'owner') throw fail('adjustmentOwnerOnly');
  const { amount_cents: amount, currency, reason: rawReason } = input.body;
  if (!Number.isSafeInteger(amount) || amount === 0 || Math.abs(amount as number) > maxAmountCents) throw fail('adjustmentAmountInvalid');
  if (!(currencies as readonly unknown[]).includes(currency)) throw fail('adjustmentCurrencyInvalid');
  const reason = typeof rawReason === 'string' ? rawReason.trim() : '';
  if (reason.length < 1 || characterCount(reason) > 500 || reason.includes('\0')) throw fail('commissionDeclineReasonInvalid');
  const partner = await partnerOf(deps, input.program, input.partnerId);
  const now = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockRow(trx, 'partners', partner.id);
    const created = await insertAdjustment(trx, {
      programId: input.program.id,
      partnerId: partner.id,
      amountCents: amount as number,
      currency: currency as Currency,
      by: input.by.accountId,
      now,
    });
    await recordAudit(trx, {
      programId: input.program.id,
      actor: input.by,
      action: 'adjustment.created',
      target: `commission:${created.id}`,
      details: { partner_id: partner.id, amount_cents: amount, currency },
      reason,
      now,
    });
    return created;
  });
  return commissionView(row, null, now);
}
