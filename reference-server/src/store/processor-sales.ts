import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** The id of the program's sale recorded under a transaction id (`processor_event_id`), if any. */
export async function findSaleIdByTransaction(db: Kysely<Database>, programId: number, transactionId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('sales')
    .select('id')
    .where('processor_event_id', '=', transactionId)
    .where('program_id', '=', programId)
    .executeTakeFirst();
  return row?.id;
}
