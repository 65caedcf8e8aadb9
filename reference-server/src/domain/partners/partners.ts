import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { releaseSuspendedHolds } from '../../store/commissions';
import { findPartnerInProgram, insertPartner, listPartners, updatePartner } from '../../store/partners';
import type { Actor } from '../audit/actor';
import { changedFields } from '../audit/changes';
import { recordAudit } from '../audit/record';
import { lockRow } from '../../store/row-lock';
import { queueCommissionUpdated } from '../commissions/updated-event';
import type { Database, Partner, Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { partnerEmail, partnerName, partnerStatus } from './fields';
import { partnerEmailsNow, riskCountsByPartner } from '../../store/risk-events';
import { recordRiskSignals } from '../risk/record';
import { sharedIdentitySignals } from '../risk/signals';
import type { Kysely } from 'kysely';
import { figuresByPartner, figuresOf } from './figures';
import { partnerView, type PartnerWire } from './view';
import { ownTerms, partnerTerms, termsInForce } from './terms';

type Body = Record<string, unknown>;
export type MerchantPartnerSummary = components['schemas']['MerchantPartnerSummary'];

/**
 * Adds a partner to the program (dashboard, `POST /api/v1/partners`, the demo): `name`, optional `email`. The email's
 * account sees the program only after accepting the invitation; `accepted` is for the demo's own partner.
 */
export async function createPartner(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  body: Body,
  by: Actor,
  options: { accepted?: boolean } = {},
): Promise<PartnerWire> {
  const name = partnerName(body.name);
  const email = partnerEmail(body.email);
  const invitation = email !== null && !options.accepted ? 'pending' : 'accepted';
  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const id = await insertPartner(trx, { programId: program.id, name, email, invitation, invitedBy: by.accountId, now });
    const details = { name, email, invitation };
    await recordAudit(trx, { programId: program.id, actor: by, action: 'partner.created', target: `partner:${id}`, details, now });
    await flagSharedIdentity(trx, program, { id, email }, now);
    return id;
  });
  return partnerView((await findPartnerInProgram(deps.db, program.id, id)) as Partner);
}

/** A partner of this program, or 404 (another program's partner is not found either: ids do not leak across programs). */
export async function partnerOf(deps: Pick<DomainContext, 'db'>, program: Program, partnerId: number): Promise<Partner> {
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
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  partnerId: number,
  body: Body,
  by: Actor,
): Promise<PartnerWire> {
  const update: Parameters<typeof updatePartner>[2] = {};
  if (body.name !== undefined) update.name = partnerName(body.name);
  if (body.email !== undefined) update.email = partnerEmail(body.email);
  if (body.status !== undefined) update.status = partnerStatus(body.status);
  const terms = partnerTerms(body);
  if (terms !== undefined) {
    update.commission_type = terms?.commission_type ?? null;
    update.commission_rate = terms?.commission_rate ?? null;
  }
  if (Object.keys(update).length === 0) throw fail('partnerNothingToUpdate');
  await partnerOf(deps, program, partnerId);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    // Read under the row's lock, so the audit entry's old values are the ones this change replaced.
    await lockRow(trx, 'partners', partnerId);
    const before = await partnerOf({ db: trx }, program, partnerId);
    if (update.email !== undefined && update.email !== before.email) {
      update.invitation = update.email === null ? 'accepted' : 'pending';
      update.invited_by_account_id = by.accountId;
    }
    let partner = await updatePartner(trx, partnerId, update);
    if (partner.email !== before.email && (await flagSharedIdentity(trx, program, partner, now))) {
      partner = await partnerOf({ db: trx }, program, partnerId);
    }
    const changes = changedFields(before, partner, ['name', 'email', 'invitation', 'status']);
    const audit = { programId: program.id, actor: by, target: `partner:${partnerId}`, now };
    if (Object.keys(changes).length > 0) await recordAudit(trx, { ...audit, action: 'partner.updated', details: changes });
    if (update.status === 'active') {
      const released = await releaseSuspendedHolds(trx, partnerId, { by: by.accountId, now });
      for (const row of released) await queueCommissionUpdated(trx, row, 'held', now);
      if (released.length > 0) await recordAudit(trx, { ...audit, action: 'commission.released', details: releaseDetails(released) });
    }
    const [old, current] = [ownTerms(before), ownTerms(partner)];
    if (terms !== undefined && JSON.stringify(old) !== JSON.stringify(current)) {
      // `before` is read under the row's lock: the audit's old terms are the ones this change replaced.
      await recordAudit(trx, { ...audit, action: 'partner.terms_changed', details: { old: old ?? 'program', new: current ?? 'program' } });
    }
    return partnerView(partner);
  });
}

/**
 * A partner's new email against the program's other partners' (domain/risk/signals.ts): the `shared_identity`
 * events and flags, in the change's transaction. Whether it raised any.
 */
async function flagSharedIdentity(
  trx: Kysely<Database>,
  program: Program,
  partner: { id: number; email: string | null },
  now: number,
): Promise<boolean> {
  if (partner.email === null) return false;
  const signals = sharedIdentitySignals(partner, await partnerEmailsNow(trx, program.id));
  await recordRiskSignals(trx, program.id, signals, now);
  return signals.length > 0;
}

/** What a reactivation released: how many commissions, and their sum per currency. */
function releaseDetails(released: { amount_cents: number | bigint; currency: string }[]) {
  const totals = new Map<string, number>();
  for (const row of released) totals.set(row.currency, (totals.get(row.currency) ?? 0) + Number(row.amount_cents));
  return {
    count: released.length,
    totals: [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount_cents]) => ({ currency, amount_cents })),
  };
}

/** Every partner of the program with its figures, the terms in force and its risk events' count, oldest first. */
export async function listPartnerSummaries(deps: Pick<DomainContext, 'db' | 'clock'>, program: Program): Promise<MerchantPartnerSummary[]> {
  const [partners, figures, risks] = await Promise.all([
    listPartners(deps.db, program.id),
    figuresByPartner(deps.db, deps.clock.now(), program.id),
    riskCountsByPartner(deps.db, program.id),
  ]);
  return partners.map((p) => ({
    ...partnerView(p),
    terms: termsInForce(p, program),
    figures: figuresOf(figures, p.id),
    risk_events: risks.get(p.id) ?? 0,
  }));
}
