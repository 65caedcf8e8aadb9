import type { Kysely } from 'kysely';
import type { Database, ReferralLink } from './schema';

type Db = Kysely<Database>;

export function findLinkByShortLink(db: Db, shortLink: string): Promise<ReferralLink | undefined> {
  return db.selectFrom('referral_links').selectAll().where('short_link', '=', shortLink).executeTakeFirst();
}

/** The link a click names, with its partner's status (a suspended partner's links refuse clicks); one indexed join. */
export function findLinkForClick(db: Db, shortLink: string) {
  return db
    .selectFrom('referral_links')
    .leftJoin('partners', 'partners.id', 'referral_links.partner_id')
    .selectAll('referral_links')
    .select('partners.status as partner_status')
    .where('referral_links.short_link', '=', shortLink)
    .executeTakeFirst();
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

export function setLinkEnabledById(db: Db, id: number, enabled: boolean): Promise<ReferralLink> {
  return db.updateTable('referral_links').set({ enabled: enabled ? 1 : 0 }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A program's links with a partner, optionally one partner's, oldest first. */
export function listLinks(db: Db, programId: number, partnerId?: number): Promise<ReferralLink[]> {
  let q = db.selectFrom('referral_links').selectAll().where('program_id', '=', programId).where('partner_id', 'is not', null);
  if (partnerId !== undefined) q = q.where('partner_id', '=', partnerId);
  return q.orderBy('id').execute();
}

/** The link only when it belongs to the program, by id or by short_link. */
export function findLinkInProgram(db: Db, programId: number, by: { id: number } | { shortLink: string }): Promise<ReferralLink | undefined> {
  let q = db.selectFrom('referral_links').selectAll().where('program_id', '=', programId).where('partner_id', 'is not', null);
  q = 'id' in by ? q.where('id', '=', by.id) : q.where('short_link', '=', by.shortLink);
  return q.executeTakeFirst();
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

/** The link when its partner was invited with this email (the partner view), with its program's domain. */
export function findLinkOwnedByEmail(db: Db, linkId: number, email: string) {
  return db
    .selectFrom('referral_links')
    .innerJoin('partners', 'partners.id', 'referral_links.partner_id')
    .innerJoin('programs', 'programs.id', 'referral_links.program_id')
    .select(['referral_links.id', 'programs.domain'])
    .where('referral_links.id', '=', linkId)
    .where('partners.email', '=', email)
    .executeTakeFirst();
}
