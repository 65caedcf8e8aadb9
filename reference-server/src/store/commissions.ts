import type { Currency } from '@svc/types';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

export async function insertCommission(
  db: Db,
  commission: { saleId: number; programId: number; partnerId: number; amountCents: number; currency: Currency; now: number },
): Promise<number> {
  const row = await db
    .insertInto('commissions')
    .values({
      sale_id: commission.saleId,
      program_id: commission.programId,
      partner_id: commission.partnerId,
      amount_cents: commission.amountCents,
      currency: commission.currency,
      status: 'pending',
      created_at: commission.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findCommissionOfSale(db: Db, saleId: number) {
  return db.selectFrom('commissions').selectAll().where('sale_id', '=', saleId).executeTakeFirst();
}

export async function reverseCommission(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('commissions').set({ status: 'reversed', reversed_at: now }).where('id', '=', id).execute();
}
