import { fail } from '../../errors/service-error';
import { findCommissionOfSale, reverseCommission } from '../../store/commissions';
import { findSaleInProgram, markRefunded } from '../../store/sales';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { customerKeyOf } from '../../store/webhooks';
import { countRefund } from '../metrics/record';
import { queueWebhookEvent } from '../webhooks/events';
import { commissionWireStatus } from '../commissions/status';
import { queueCommissionUpdated } from '../commissions/updated-event';

export interface RefundInput {
  program: Program;
  transactionId: string;
  reason?: 'refund' | 'chargeback';
  note?: string;
}

export interface RefundResult {
  saleId: number;
  commissionId: number | null;
  transactionId: string;
  commissionStatus: 'reversed' | 'none';
  alreadyRefunded: boolean;
}

/**
 * spec/rules.md "POST /api/v1/track/refund": marks the sale refunded and reverses its commission, and takes both back out of
 * the metrics, in one transaction. **Decision:** refunds are whole; a second refund changes nothing.
 */
export async function recordRefund(deps: DomainContext, input: RefundInput): Promise<RefundResult> {
  const sale = await findSaleInProgram(deps.db, input.program.id, input.transactionId);
  if (!sale) throw fail('refundSaleNotFound');
  deps.faults.check('refund');
  const commission = await findCommissionOfSale(deps.db, sale.id);
  const now = deps.clock.now();

  const refundedNow = await deps.db.transaction().execute(async (trx) => {
    if (!(await markRefunded(trx, sale.id, { reason: input.reason ?? null, note: input.note ?? null, now }))) return false;
    if (commission && commission.status !== 'reversed') {
      const reversed = await reverseCommission(trx, commission.id, now);
      // The status it had as the refund read it (pending, held, due or paid); a declined one changes nothing.
      if (reversed) await queueCommissionUpdated(trx, reversed, commissionWireStatus(commission, now), now);
    }
    if (sale.is_test === 0) {
      await countRefund(trx, {
        programId: sale.program_id,
        partnerId: sale.partner_id,
        amountCents: sale.amount_cents,
        currency: sale.currency,
        commissionCents: commission?.amount_cents ?? 0,
        occurredAt: sale.occurred_at,
      });
    }
    // Outbound webhooks: once per sale, in the refund's transaction (spec/openapi.yaml, webhooks `sale.refunded`).
    await queueWebhookEvent(trx, {
      programId: sale.program_id,
      type: 'sale.refunded',
      at: now,
      data: async () => ({
        program_id: sale.program_id,
        sale_id: sale.id,
        transaction_id: sale.processor_event_id,
        customer_key: await customerKeyOf(trx, sale.customer_id),
        partner_id: sale.partner_id,
        amount_cents: sale.amount_cents,
        currency: sale.currency,
        commission_id: commission?.id ?? null,
        commission_status: commission ? 'reversed' : 'none',
        reason: input.reason ?? null,
        is_test: sale.is_test === 1,
      }),
    });
    return true;
  });
  return {
    saleId: sale.id,
    commissionId: commission?.id ?? null,
    transactionId: input.transactionId,
    commissionStatus: commission ? 'reversed' : 'none',
    alreadyRefunded: !refundedNow,
  };
}
