import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { findLinkOwnedByEmail, listLinks, setLinkEnabledById } from '../../store/links';
import { partnersByEmail } from '../../store/partners';
import type { Account } from '../../store/schema';
import type { DomainDeps } from '../deps';
import { enabledFlag } from '../partners/fields';
import { figuresByPartner, figuresOf } from '../partners/figures';
import { linkView, partnerView, type LinkWire } from '../partners/view';

export type PartnerViewEntry = components['schemas']['PartnerViewEntry'];

/**
 * What a signed-in partner sees: for each program that invited the account's email, the partner's own record,
 * figures and links — never another partner, never the program's settings or key. The join is the email, which
 * the sign-in verified (OIDC, or the dev sign-in where enabled).
 */
export async function partnerViewOf(deps: Pick<DomainDeps, 'db'>, account: Account): Promise<PartnerViewEntry[]> {
  const partners = await partnersByEmail(deps.db, account.email.toLowerCase());
  return Promise.all(
    partners.map(async (p) => {
      const [figures, links] = await Promise.all([figuresByPartner(deps.db, p.program_id, p.id), listLinks(deps.db, p.program_id, p.id)]);
      return {
        program: { id: p.program_id, name: p.program_name, domain: p.program_domain },
        partner: { ...partnerView(p), figures: figuresOf(figures, p.id) },
        links: links.map((l) => linkView(l, p.program_domain)),
      };
    }),
  );
}

/** A partner turns one of their own links on or off; anyone else's link is "not found". */
export async function setOwnLinkEnabled(
  deps: Pick<DomainDeps, 'db'>,
  account: Account,
  linkId: number,
  body: Record<string, unknown>,
): Promise<LinkWire> {
  const enabled = enabledFlag(body.enabled);
  const own = await findLinkOwnedByEmail(deps.db, linkId, account.email.toLowerCase());
  if (!own) throw fail('linkNotFound');
  return linkView(await setLinkEnabledById(deps.db, own.id, enabled), own.domain);
}
