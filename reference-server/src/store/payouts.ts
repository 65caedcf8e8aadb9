import type { Insertable, Kysely } from 'kysely';
import type { Commission, Database, PayoutRow, PayoutsTable } from './schema';

type Db = Kysely<Database>;

/** A payout row, its totals filled in once its commissions are settled (same transaction). */
export async function insertPayout(db: Db, payout: Insertable<PayoutsTable>): Promise<number> {
  const row = await db.insertInto('payouts').values(payout).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function setPayoutTotals(db: Db, id: number, totals: string): Promise<PayoutRow> {
  return db.updateTable('payouts').set({ totals }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A program's payouts newest first, below `beforeId` (the cursor), optionally of one partner. */
export function listPayouts(
  db: Db,
  programId: number,
  page: { limit: number; beforeId?: number | undefined; partnerId?: number | undefined },
): Promise<PayoutRow[]> {
  let q = db.selectFrom('payouts').selectAll().where('program_id', '=', programId);
  if (page.partnerId !== undefined) q = q.where('partner_id', '=', page.partnerId);
  if (page.beforeId !== undefined) q = q.where('id', '<', page.beforeId);
  return q.orderBy('id', 'desc').limit(page.limit).execute();
}

export function findPayoutInProgram(db: Db, programId: number, id: number): Promise<PayoutRow | undefined> {
  return db.selectFrom('payouts').selectAll().where('program_id', '=', programId).where('id', '=', id).executeTakeFirst();
}

/** The commissions a payout paid and the clawbacks it netted, oldest first, with their sale's transaction id. */
export function commissionsOfPayout(db: Db, payoutId: number) {
  return db
    .selectFrom('commissions')
    .leftJoin('sales', 'sales.id', 'commissions.sale_id')
    .selectAll('commissions')
    .select('sales.processor_event_id as transaction_id')
    .where((eb) => eb.or([eb('commissions.payout_id', '=', payoutId), eb('commissions.clawback_payout_id', '=', payoutId)]))
    .orderBy('commissions.id')
    .execute() as Promise<(Commission & { transaction_id: string | null })[]>;
}
