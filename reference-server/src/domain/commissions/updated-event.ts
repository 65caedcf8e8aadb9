import type { Kysely } from 'kysely';
import type { Commission, Database } from '../../store/schema';
import { queueWebhookEvent } from '../webhooks/events';
import { commissionWireStatus, type CommissionWireStatus } from './status';

/**
 * `commission.updated` in the outbox, in `db`, the transaction of the change (spec/openapi.yaml, webhooks): the row
 * as it is after the change and the status it had before. A change that leaves the wire status as it was sends
 * nothing.
 */
export async function queueCommissionUpdated(
  db: Kysely<Database>,
  row: Commission,
  oldStatus: CommissionWireStatus,
  now: number,
): Promise<void> {
  const newStatus = commissionWireStatus(row, now);
  if (newStatus === oldStatus) return;
  await queueWebhookEvent(db, {
    programId: row.program_id,
    type: 'commission.updated',
    at: now,
    data: {
      program_id: row.program_id,
      commission_id: row.id,
      partner_id: row.partner_id,
      sale_id: row.sale_id,
      kind: row.kind,
      amount_cents: Number(row.amount_cents),
      currency: row.currency,
      old_status: oldStatus,
      new_status: newStatus,
      due_at: new Date(Number(row.due_at)).toISOString(),
      is_test: false,
    },
  });
}
