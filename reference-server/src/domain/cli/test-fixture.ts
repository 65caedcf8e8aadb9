import { findLinkByShortLink, insertLink, setLinkEnabled } from '../../store/links';
import { insertPartner } from '../../store/partners';
import type { Program, ReferralLink } from '../../store/schema';
import { isUniqueViolation } from '../../store/unique-violation';
import type { DomainContext } from '../context';

export const testPartnerName = 'svc test partner';
export const testShortLink = (programId: number) => `svc-test-${programId}`;

/**
 * The test fixture of a program: a partner and an enabled referral link that test clicks go through. Created on
 * first use and refreshed (turned back on) after; spec/rules.md "Rate-limit response" says this may happen before the chain cap
 * refuses a run. The partner is flagged `is_test` (spec/rules.md "What the service does", item 6): it is none of the program's
 * partners, so no partner list, link list, CSV export, payout or readiness count shows it.
 */
export async function ensureTestLink(deps: Pick<DomainContext, 'db' | 'clock'>, program: Program): Promise<ReferralLink> {
  const shortLink = testShortLink(program.id);
  const existing = await findLinkByShortLink(deps.db, shortLink);
  if (existing) {
    if (existing.enabled !== 1) await setLinkEnabled(deps.db, shortLink, true);
    return { ...existing, enabled: 1 };
  }
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const partnerId = await insertPartner(trx, { programId: program.id, name: testPartnerName, isTest: true, now });
      await insertLink(trx, { programId: program.id, partnerId, shortLink, now });
    });
  } catch (error) {
    // Two first test events at once: the other request created the fixture.
    if (!isUniqueViolation(error)) throw error;
  }
  const created = await findLinkByShortLink(deps.db, shortLink);
  if (!created) throw new Error(`test link ${shortLink} missing after creation`);
  return created;
}

/** A URL on the program's domain that carries the test link's `aff`. */
export function testAffiliateUrl(program: Program, link: ReferralLink): string {
  const host = program.domain.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  let url: URL;
  try {
    url = new URL(`https://${host}/`);
  } catch {
    url = new URL('https://example.com/');
  }
  url.searchParams.set('aff', link.short_link);
  return url.toString();
}
