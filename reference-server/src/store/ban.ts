import type { Kysely } from 'kysely';
import type { Commission, Database } from './schema';

type Db = Kysely<Database>;

/**
 * Turns off every link of the partner the merchant has not already turned off, as the merchant (`disabled_by:
 * merchant`, so the partner cannot turn it back on); the short links it turned off.
 */
export async function disableLinksOfPartner(db: Db, partnerId: number): Promise<string[]> {
  const rows = await db
    .updateTable('referral_links')
    .set({ enabled: 0, disabled_by: 'merchant' })
    .where('partner_id', '=', partnerId)
    .where((eb) => eb.or([eb('enabled', '=', 1), eb('disabled_by', 'is', null), eb('disabled_by', '=', 'partner')]))
    .returning('short_link')
    .execute();
  return rows.map((r) => r.short_link).sort();
}

/** The partner's unpaid `pending` (due or not) and `held` commissions, but not clawbacks (negative adjustments). */
export function openCommissionsOfPartner(db: Db, partnerId: number): Promise<Commission[]> {
  return db
    .selectFrom('commissions')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('paid_at', 'is', null)
    .where('status', 'in', ['pending', 'held'])
    .where('amount_cents', '>=', 0)
    .orderBy('id')
    .execute();
}

/** Declines those of `ids` still unpaid and open, with the decision; the rows it changed. */
export async function declineCommissions(
  db: Db,
  ids: number[],
  decision: { reason: string; by: number | null; now: number },
): Promise<Commission[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable('commissions')
    .set({
      status: 'declined',
      hold_reason: null,
      decided_by_account_id: decision.by,
      decided_at: decision.now,
      decline_reason: decision.reason,
    })
    .where('id', 'in', ids)
    .where('paid_at', 'is', null)
    .where('status', 'in', ['pending', 'held'])
    .returningAll()
    .execute();
}
