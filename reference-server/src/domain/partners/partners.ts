import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { releaseSuspendedHolds } from '../../store/commissions';
import { findPartnerInProgram, insertPartner, listPartners, updatePartner } from '../../store/partners';
import type { Actor } from '../audit/actor';
import { queueCommissionUpdated } from '../commissions/updated-event';
import type { Partner, Program } from '../../store/schema';
import type { DomainDeps } from '../deps';
import { partnerEmail, partnerName, partnerStatus } from './fields';
import { figuresByPartner, figuresOf } from './figures';
import { partnerView, type PartnerWire } from './view';

type Body = Record<string, unknown>;
export type PartnerSummary = components['schemas']['PartnerSummary'];

/**
 * Adds a partner to the program (dashboard, `POST /api/v1/partners`, the demo): `name`, optional `email`. The email's
 * account sees the program only after accepting the invitation; `accepted` is for the demo's own partner.
 */
export async function createPartner(
  deps: Pick<DomainDeps, 'db' | 'clock'>,
  program: Program,
  body: Body,
  by: Actor,
  options: { accepted?: boolean } = {},
): Promise<PartnerWire> {
  const name = partnerName(body.name);
  const email = partnerEmail(body.email);
  const invitation = email !== null && !options.accepted ? 'pending' : 'accepted';
  const id = await insertPartner(deps.db, {
    programId: program.id,
    name,
    email,
    invitation,
    invitedBy: by.accountId,
    now: deps.clock.now(),
  });
  return partnerView((await findPartnerInProgram(deps.db, program.id, id)) as Partner);
}

/** A partner of this program, or 404 (another program's partner is not found either: ids do not leak across programs). */
export async function partnerOf(deps: Pick<DomainDeps, 'db'>, program: Program, partnerId: number): Promise<Partner> {
  const partner = await findPartnerInProgram(deps.db, program.id, partnerId);
  if (!partner) throw fail('partnerNotFound');
  return partner;
}

/**
 * Renames, re-invites (email) or suspends/reactivates a partner (dashboard, `PATCH /api/v1/partners/{partnerId}`);
 * every field is checked before anything changes. A new email is a new invitation (`pending`): the person who
 * accepted the old one is not the new one. Reactivating releases the commissions held while suspended (held → due),
 * in the same transaction, recorded with `by`.
 */
export async function changePartner(
  deps: Pick<DomainDeps, 'db' | 'clock'>,
  program: Program,
  partnerId: number,
  body: Body,
  by: Actor,
): Promise<PartnerWire> {
  const update: Parameters<typeof updatePartner>[2] = {};
  if (body.name !== undefined) update.name = partnerName(body.name);
  if (body.email !== undefined) update.email = partnerEmail(body.email);
  if (body.status !== undefined) update.status = partnerStatus(body.status);
  if (Object.keys(update).length === 0) throw fail('partnerNothingToUpdate');
  const before = await partnerOf(deps, program, partnerId);
  if (update.email !== undefined && update.email !== before.email) {
    update.invitation = update.email === null ? 'accepted' : 'pending';
    update.invited_by_account_id = by.accountId;
  }
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const partner = await updatePartner(trx, partnerId, update);
    if (update.status === 'active') {
      const released = await releaseSuspendedHolds(trx, partnerId, { by: by.accountId, now });
      for (const row of released) await queueCommissionUpdated(trx, row, 'held', now);
    }
    return partnerView(partner);
  });
}

/** Every partner of the program with its figures, oldest first. */
export async function listPartnerSummaries(deps: Pick<DomainDeps, 'db' | 'clock'>, program: Program): Promise<PartnerSummary[]> {
  const [partners, figures] = await Promise.all([
    listPartners(deps.db, program.id),
    figuresByPartner(deps.db, deps.clock.now(), program.id),
  ]);
  return partners.map((p) => ({ ...partnerView(p), figures: figuresOf(figures, p.id) }));
}
