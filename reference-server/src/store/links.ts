import type { Kysely } from 'kysely';
import type { Database, ReferralLink } from './schema';

type Db = Kysely<Database>;

export function findLinkByShortLink(db: Db, shortLink: string): Promise<ReferralLink | undefined> {
  return db.selectFrom('referral_links').selectAll().where('short_link', '=', shortLink).executeTakeFirst();
}

export async function insertLink(
  db: Db,
  values: { programId: number | null; partnerId: number | null; shortLink: string; now: number },
): Promise<number> {
  const row = await db
    .insertInto('referral_links')
    .values({ program_id: values.programId, partner_id: values.partnerId, short_link: values.shortLink, created_at: values.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Turns a link on or off (§Resources/Referral link); false when no link has that short_link. */
export async function setLinkEnabled(db: Db, shortLink: string, enabled: boolean): Promise<boolean> {
  const result = await db
    .updateTable('referral_links')
    .set({ enabled: enabled ? 1 : 0 })
    .where('short_link', '=', shortLink)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Enabled links with a partner: the readiness `active_links` count. */
export async function countActiveLinks(db: Db, programId: number): Promise<number> {
  const row = await db
    .selectFrom('referral_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('program_id', '=', programId)
    .where('enabled', '=', 1)
    .where('partner_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
