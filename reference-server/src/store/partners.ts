import type { Kysely } from 'kysely';
import type { Database, Partner } from './schema';

type Db = Kysely<Database>;

export async function insertPartner(db: Db, values: { programId: number; name: string; email?: string | null; now: number }): Promise<number> {
  const row = await db
    .insertInto('partners')
    .values({ program_id: values.programId, name: values.name, email: values.email ?? null, created_at: values.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findPartnerById(db: Db, id: number) {
  return db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The partner only when it belongs to the program (another program's partner is "not found"). */
export function findPartnerInProgram(db: Db, programId: number, id: number): Promise<Partner | undefined> {
  return db.selectFrom('partners').selectAll().where('program_id', '=', programId).where('id', '=', id).executeTakeFirst();
}

export function listPartners(db: Db, programId: number): Promise<Partner[]> {
  return db.selectFrom('partners').selectAll().where('program_id', '=', programId).orderBy('id').execute();
}

/** The partners an email was invited as, across programs (the partner view's join with the signed-in account). */
export function partnersByEmail(db: Db, email: string) {
  return db
    .selectFrom('partners')
    .innerJoin('programs', 'programs.id', 'partners.program_id')
    .selectAll('partners')
    .select(['programs.name as program_name', 'programs.domain as program_domain'])
    .where('partners.email', '=', email)
    .orderBy('partners.id')
    .execute();
}

export async function updatePartner(
  db: Db,
  id: number,
  update: { name?: string; email?: string | null; status?: 'active' | 'suspended' },
): Promise<Partner> {
  return db.updateTable('partners').set(update).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
