import type { components } from '@svc/types';
import type { Commission, PayoutRow } from '../../store/schema';
import { commissionView } from '../commissions/decide';

export type PayoutWire = components['schemas']['Payout'];
export type PayoutTotals = PayoutWire['totals'];
export type PayoutDetailWire = components['schemas']['PayoutDetail'];

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function payoutView(row: PayoutRow): PayoutWire {
  return {
    id: Number(row.id),
    partner_id: Number(row.partner_id),
    through: iso(row.through) as string,
    totals: JSON.parse(row.totals) as PayoutTotals,
    reference: row.reference,
    method: row.method,
    note: row.note,
    created_by: row.created_by,
    created_at: iso(row.created_at) as string,
  };
}

/** A commission as one payout settled it: `paid` by it, or `clawback` (reversed after payment) netted by it. */
export function payoutCommissionView(
  payoutId: number,
  row: Commission & { transaction_id: string | null },
  now: number,
): PayoutDetailWire['commissions'][number] {
  const { transaction_id, ...commission } = row;
  return {
    settled_as: Number(row.payout_id) === payoutId ? 'paid' : 'clawback',
    transaction_id,
    commission: commissionView(commission, transaction_id, now),
  };
}
