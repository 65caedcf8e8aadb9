import type { CommissionStatus } from '../../store/schema';

/**
 * A commission's status on the wire, from its stored status and payment: `pending` stored and unpaid is `due` (no
 * hold period runs yet; the commission lifecycle will keep `pending` for a running hold), paid is `paid` until a
 * refund reverses it.
 */
export type CommissionWireStatus = 'pending' | 'held' | 'due' | 'paid' | 'reversed' | 'declined';

export function commissionWireStatus(row: { status: CommissionStatus; paid_at: number | null }): CommissionWireStatus {
  if (row.status === 'pending') return row.paid_at === null ? 'due' : 'paid';
  return row.status;
}
