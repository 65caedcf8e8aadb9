import type { CommissionStatus } from '../../store/schema';

/**
 * A commission's status on the wire, from its stored status, payment and `due_at` at `now` (the server clock):
 * stored `pending` and unpaid is `pending` while the program's hold period runs (`due_at` ahead) and `due` from
 * then on; paid is `paid` until a refund reverses it. No write marks the end of a hold: the clock does.
 */
export type CommissionWireStatus = 'pending' | 'held' | 'due' | 'paid' | 'reversed' | 'declined';

export function commissionWireStatus(
  row: { status: CommissionStatus; paid_at: number | null; due_at: number },
  now: number,
): CommissionWireStatus {
  if (row.status === 'pending') {
    if (row.paid_at !== null) return 'paid';
    return Number(row.due_at) <= now ? 'due' : 'pending';
  }
  return row.status;
}

export const commissionWireStatuses: readonly CommissionWireStatus[] = ['pending', 'held', 'due', 'paid', 'reversed', 'declined'];
