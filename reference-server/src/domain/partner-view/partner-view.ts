import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { findLinkInProgram, findLinkOwnedByEmail, listLinks, setLinkEnabledByPartner } from '../../store/links';
import { lockRow } from '../../store/row-lock';
import { accountActor } from '../audit/actor';
import { recordLinkChange } from '../partners/links';
import { partnersByEmail } from '../../store/partners';
import { listPayouts } from '../../store/payouts';
import type { Account, PayoutRow } from '../../store/schema';
import type { DomainContext } from '../context';
import { enabledFlag } from '../partners/fields';
import { figuresByPartner, figuresOf } from '../partners/figures';
import { termsInForce } from '../partners/terms';
import { linkView, partnerView, type LinkWire } from '../partners/view';
import { latestCommissionsOfPartner } from '../../store/commissions';
import { commissionWireStatus } from '../commissions/status';
import { payoutView } from '../payouts/view';

/** The partner's latest commissions the view lists per program (the figures count them all). */
const ownCommissionsShown = 50;

export type PartnerViewEntry = components['schemas']['PartnerViewEntry'];
export type PartnerInvitationWire = components['schemas']['PartnerInvitation'];
type PartnerPayoutWire = components['schemas']['PartnerPayout'];

/**
 * What a signed-in partner sees: for each program whose invitation the account's email accepted, the partner's own
 * record, terms in force, figures, links, latest commissions (the last `ownCommissionsShown`) and latest payouts —
 * never another partner, never the program's settings or key; for each invitation still
 * pending, only the program's name and who invited them, to accept or decline. The join is the email, which the
 * sign-in verified (OIDC, or the dev sign-in where enabled).
 */
export async function partnerViewOf(
  deps: Pick<DomainContext, 'db' | 'clock' | 'publicUrl'>,
  account: Account,
): Promise<{ partners: PartnerViewEntry[]; invitations: PartnerInvitationWire[] }> {
  const rows = await partnersByEmail(deps.db, account.email.toLowerCase());
  const accepted = rows.filter((p) => p.invitation === 'accepted');
  const now = deps.clock.now();
  const partners = await Promise.all(
    accepted.map(async (p) => {
      const [figures, links, commissions, payouts] = await Promise.all([
        figuresByPartner(deps.db, now, p.program_id, p.id),
        listLinks(deps.db, p.program_id, p.id),
        latestCommissionsOfPartner(deps.db, p.program_id, p.id, ownCommissionsShown),
        listPayouts(deps.db, p.program_id, { partnerId: p.id, limit: partnerPayoutsShown }),
      ]);
      const program = { commission_type: p.program_commission_type, commission_rate: p.program_commission_rate };
      return {
        program: { id: p.program_id, name: p.program_name, domain: p.program_domain },
        partner: { ...partnerView(p), terms: termsInForce(p, program), figures: figuresOf(figures, p.id) },
        links: links.map((l) => linkView(l, p.program_domain, deps.publicUrl)),
        commissions: commissions.map((c) => ({
          id: c.id,
          kind: c.kind,
          status: commissionWireStatus(c, now),
          due_at: new Date(Number(c.due_at)).toISOString(),
          amount_cents: Number(c.amount_cents),
          currency: c.currency,
          created_at: new Date(Number(c.created_at)).toISOString(),
        })),
        payouts: payouts.map(partnerPayoutView),
      };
    }),
  );
  const invitations = rows
    .filter((p) => p.invitation === 'pending')
    .map((p) => ({ partner_id: p.id, program_name: p.program_name, invited_by: p.inviter_email }));
  return { partners, invitations };
}

/** The partner's latest payouts shown in their view; the merchant's CSVs hold the rest. */
const partnerPayoutsShown = 50;

/** A payout as its partner sees it: when, how much, how and the merchant's reference; the merchant's note stays theirs. */
function partnerPayoutView(row: PayoutRow): PartnerPayoutWire {
  const { id, totals, reference, method, created_at } = payoutView(row);
  return { id, totals, reference, method, created_at };
}

/**
 * A partner turns one of their own links off, or back on when they turned it off themselves: a link the merchant
 * turned off stays off (403). Anyone else's link, or one of a program whose invitation is not accepted, is "not found".
 */
export async function setOwnLinkEnabled(
  deps: Pick<DomainContext, 'db' | 'clock' | 'publicUrl'>,
  account: Account,
  linkId: number,
  body: Record<string, unknown>,
): Promise<LinkWire> {
  const enabled = enabledFlag(body.enabled);
  const own = await findLinkOwnedByEmail(deps.db, linkId, account.email.toLowerCase());
  if (!own || own.program_id === null || own.partner_id === null) throw fail('linkNotFound');
  const { program_id: programId, partner_id: partnerId } = own;
  const link = await deps.db.transaction().execute(async (trx) => {
    // Held on the partner's row, as the merchant's change is, so the old state read here is the one replaced.
    await lockRow(trx, 'partners', partnerId);
    const before = await findLinkInProgram(trx, programId, { id: own.id });
    const after = await setLinkEnabledByPartner(trx, own.id, enabled);
    if (!before || !after) return after;
    await recordLinkChange(trx, { programId, actor: accountActor(account), now: deps.clock.now() }, before, after);
    return after;
  });
  if (!link) throw fail('linkDisabledByMerchant');
  return linkView(link, own.domain, deps.publicUrl);
}
