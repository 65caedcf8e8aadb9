import { coalesced, eachKey, listParameter, compiled, insertRow, type Db } from './engine';
import type { Click } from './schema';

const clickById = compiled<{ clickId: string }, Click>((db, $) => db.selectFrom('clicks').selectAll().where('click_id', '=', $('clickId')));

const clicksByIds = compiled<{ ids: unknown }, Click>((db, $) =>
  eachKey(db, $('ids'), (matches) => db.selectFrom('clicks').selectAll().where(matches('click_id'))),
);

const byClickIds = coalesced<string, Click>({
  read: async (db, clickIds) => (await clicksByIds(db, { ids: listParameter(db, clickIds) })).rows,
  readOne: async (trx, clickId) => (await clickById(trx, { clickId })).rows[0],
  keyOf: (clickId) => clickId,
  keyOfRow: (click) => click.click_id,
});

export function findClick(db: Db, clickId: string): Promise<Click | undefined> {
  return byClickIds(db, clickId);
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
