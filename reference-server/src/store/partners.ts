import type { Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

export async function insertPartner(db: Db, values: { programId: number; name: string; now: number }): Promise<number> {
  const row = await db
    .insertInto('partners')
    .values({ program_id: values.programId, name: values.name, created_at: values.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findPartnerById(db: Db, id: number) {
  return db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
}
