import type { Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/** Every click, customer, sale and commission of a program, oldest first (test-control `records`). */
export async function programRecords(db: Db, programId: number) {
  const [clicks, customers, sales, commissions] = await Promise.all([
    db.selectFrom('clicks').select(['click_id', 'partner_id', 'is_test']).where('program_id', '=', programId).orderBy('id').execute(),
    db
      .selectFrom('customers')
      .select(['customer_key', 'click_id', 'partner_id', 'status', 'provisional', 'is_test'])
      .where('program_id', '=', programId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('sales')
      .select(['id', 'processor_event_id', 'amount_cents', 'currency', 'is_test', 'refunded'])
      .where('program_id', '=', programId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('commissions')
      .select(['id', 'sale_id', 'amount_cents', 'status'])
      .where('program_id', '=', programId)
      .orderBy('id')
      .execute(),
  ]);
  return { clicks, customers, sales, commissions };
}
