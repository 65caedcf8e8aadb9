import type { Kysely } from 'kysely';
import { cachedLookup } from './engine';
import type { Database, ReferralLink } from './schema';

type Db = Kysely<Database>;

export function findLinkByShortLink(db: Db, shortLink: string): Promise<ReferralLink | undefined> {
  return db.selectFrom('referral_links').selectAll().where('short_link', '=', shortLink).executeTakeFirst();
}

/**
 * The link a click names, with its partner's status (a suspended partner's links refuse clicks) and test flag (the
 * CLI's test link takes test clicks only); one indexed join.
 */
export function findLinkForClick(db: Db, shortLink: string) {
  // Through the lookup cache (store/engine/lookup-cache.ts): a write to the link or its partner empties it.
  return cachedLookup(db, `link:${shortLink}`, () =>
    db
      .selectFrom('referral_links')
      .leftJoin('partners', 'partners.id', 'referral_links.partner_id')
      .selectAll('referral_links')
      .select(['partners.status as partner_status', 'partners.is_test as partner_is_test'])
      .where('referral_links.short_link', '=', shortLink)
      .executeTakeFirst(),
  );
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

/** What the merchant's on or off writes: off records the merchant; on clears who turned it off. */
const merchantSets = (enabled: boolean) => ({ enabled: enabled ? 1 : 0, disabled_by: enabled ? null : 'merchant' }) as const;

/** The merchant (test control) turns a link on or off (spec/rules.md "Resources/Referral link"); false when no link has that short_link. */
export async function setLinkEnabled(db: Db, shortLink: string, enabled: boolean): Promise<boolean> {
  const result = await db.updateTable('referral_links').set(merchantSets(enabled)).where('short_link', '=', shortLink).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The merchant turns a link on or off (dashboard, program key, CLI). */
export function setLinkEnabledById(db: Db, id: number, enabled: boolean): Promise<ReferralLink> {
  return db.updateTable('referral_links').set(merchantSets(enabled)).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * The partner turns their link off (an enabled one becomes `disabled_by: partner`; one already off keeps who turned it
 * off) or on (only when the merchant did not turn it off: undefined then). Each is one conditional UPDATE, so a
 * merchant's change at the same moment is never overwritten by the partner's.
 */
export async function setLinkEnabledByPartner(db: Db, id: number, enabled: boolean): Promise<ReferralLink | undefined> {
  if (enabled) {
    return db
      .updateTable('referral_links')
      .set({ enabled: 1, disabled_by: null })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('disabled_by', 'is', null), eb('disabled_by', '=', 'partner')]))
      .returningAll()
      .executeTakeFirst();
  }
  await db
    .updateTable('referral_links')
    .set({ enabled: 0, disabled_by: 'partner' })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .execute();
  return db.selectFrom('referral_links').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The program's links of a partner that is not the test partner (`partners.is_test`). */
function programLinks(db: Db, programId: number) {
  return db
    .selectFrom('referral_links')
    .innerJoin('partners', 'partners.id', 'referral_links.partner_id')
    .where('referral_links.program_id', '=', programId)
    .where('partners.is_test', '=', 0);
}

/** A program's links with a partner, optionally one partner's, oldest first (never the test link). */
export function listLinks(db: Db, programId: number, partnerId?: number): Promise<ReferralLink[]> {
  let q = programLinks(db, programId).selectAll('referral_links');
  if (partnerId !== undefined) q = q.where('referral_links.partner_id', '=', partnerId);
  return q.orderBy('referral_links.id').execute();
}

/** The link only when it belongs to the program, by id or by short_link (the test link is "not found"). */
export function findLinkInProgram(
  db: Db,
  programId: number,
  by: { id: number } | { shortLink: string },
): Promise<ReferralLink | undefined> {
  let q = programLinks(db, programId).selectAll('referral_links');
  q = 'id' in by ? q.where('referral_links.id', '=', by.id) : q.where('referral_links.short_link', '=', by.shortLink);
  return q.executeTakeFirst();
}

/**
 * The readiness `active_links` count: links that take clicks, so enabled ones of an active partner (a suspended
 * partner's links refuse clicks, `domain/tracking/click.ts`), never the test link.
 */
export async function countActiveLinks(db: Db, programId: number): Promise<number> {
  const row = await programLinks(db, programId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('referral_links.enabled', '=', 1)
    .where('partners.status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The link when its partner was invited with this email and accepted (the partner view), with its program's domain. */
export function findLinkOwnedByEmail(db: Db, linkId: number, email: string) {
  return db
    .selectFrom('referral_links')
    .innerJoin('partners', 'partners.id', 'referral_links.partner_id')
    .innerJoin('programs', 'programs.id', 'referral_links.program_id')
    .select(['referral_links.id', 'referral_links.program_id', 'referral_links.partner_id', 'programs.domain'])
    .where('referral_links.id', '=', linkId)
    .where('partners.email', '=', email)
    .where('partners.invitation', '=', 'accepted')
    .executeTakeFirst();
}
