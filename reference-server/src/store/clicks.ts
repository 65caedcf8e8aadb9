import type { Kysely } from 'kysely';
import type { Click, Database } from './schema';

type Db = Kysely<Database>;

export function findClick(db: Db, clickId: string): Promise<Click | undefined> {
  return db.selectFrom('clicks').selectAll().where('click_id', '=', clickId).executeTakeFirst();
}

export async function insertClick(
  db: Db,
  click: { clickId: string; programId: number; partnerId: number; linkId: number; isTest: boolean; now: number },
): Promise<void> {
  await db
    .insertInto('clicks')
    .values({
      click_id: click.clickId,
      program_id: click.programId,
      partner_id: click.partnerId,
      link_id: click.linkId,
      is_test: click.isTest ? 1 : 0,
      created_at: click.now,
    })
    .execute();
}
