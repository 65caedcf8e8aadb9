import type { Kysely } from 'kysely';
import { compiled, insertRow } from './compiled';
import type { Click, Database } from './schema';

type Db = Kysely<Database>;

const clickById = compiled<{ clickId: string }, Click>((db, $) => db.selectFrom('clicks').selectAll().where('click_id', '=', $('clickId')));

export async function findClick(db: Db, clickId: string): Promise<Click | undefined> {
  return (await clickById(db, { clickId })).rows[0];
}

export async function insertClick(
  db: Db,
  click: { clickId: string; programId: number; partnerId: number; linkId: number; isTest: boolean; now: number },
): Promise<void> {
  await insertRow(db, 'clicks', {
    click_id: click.clickId,
    program_id: click.programId,
    partner_id: click.partnerId,
    link_id: click.linkId,
    is_test: click.isTest ? 1 : 0,
    created_at: click.now,
  });
}
