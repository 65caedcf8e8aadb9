import type { Currency } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Role } from '../../store/accounts';
import { payableCommissions, settleCommissions, type SettledCommission } from '../../store/commissions';
import { insertPayout, setPayoutTotals } from '../../store/payouts';
import { lockRow } from '../../store/row-lock';
import type { Program } from '../../store/schema';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/record';
import type { DomainContext } from '../context';
import { positiveId } from '../partners/fields';
import { partnerOf } from '../partners/partners';
import { queueWebhookEvent } from '../webhooks/events';
import { dateBound } from './dates';
import { forceFlag, payoutText } from './fields';
import { payoutView, type PayoutTotals, type PayoutWire } from './view';

/**
 * Records that the merchant paid a partner (owners only) as a payout record: every due commission (its hold period
 * over by now, on the server clock; adjustments of either sign included) created by `through` (default: now)
 * becomes paid by it, netted against commissions reversed after an earlier payment (the partner's negative
 * balance). Per currency: when what is owed back exceeds what is due, nothing in that currency is settled and the
 * balance carries to the next payout (`carried_cents`). A call that settles nothing records nothing (409), so
 * repeating a payout never pays twice; one paying less than the program's `min_payout_cents` in a currency is
 * refused (400) unless `force`. Payouts of one partner run one at a time (the partner's row is locked), and the
 * record is made from the rows the UPDATEs changed, so two simultaneous calls never both report the same money.
 */
export async function recordPayout(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  role: Role,
  by: Actor,
  body: Record<string, unknown>,
): Promise<PayoutWire> {
  if (role !== 'owner') throw fail('payoutOwnerOnly');
  if (body.partner_id === undefined) throw fail('partnerIdInvalid');
  const partner = await partnerOf(deps, program, positiveId(body.partner_id, 'partnerIdInvalid'));
  const now = deps.clock.now();
  const through = body.through === undefined ? now : dateBound(body.through, 'end');
  if (through === undefined) throw fail('payoutThroughInvalid');
  const fields = {
    reference: payoutText(body.reference, 200, 'payoutReferenceInvalid'),
    method: payoutText(body.method, 100, 'payoutMethodInvalid'),
    note: payoutText(body.note, 1000, 'payoutNoteInvalid'),
  };
  const force = forceFlag(body.force);

  return deps.db.transaction().execute(async (trx) => {
    // One payout of the partner at a time: a second one reads the commissions once the first has committed.
    await lockRow(trx, 'partners', partner.id);
    const rows = await payableCommissions(trx, program.id, partner.id, through, now);
    const carried = new Set<Currency>();
    for (const [currency, cents] of Object.entries(netByCurrency(rows)) as [Currency, number][]) if (cents < 0) carried.add(currency);
    const ids = { due: [] as number[], clawbacks: [] as number[] };
    for (const r of rows) if (!carried.has(r.currency)) (r.status === 'pending' ? ids.due : ids.clawbacks).push(r.id);
    const id = await insertPayout(trx, {
      program_id: program.id,
      partner_id: partner.id,
      through,
      totals: '{}',
      ...fields,
      created_by_account_id: by.accountId,
      created_by: by.label,
      created_at: now,
    });
    // The record counts what this call settled, never what it read: a row another payout settled first is not ours.
    const settled = await settleCommissions(trx, ids, { id, now });
    if (settled.length === 0) throw fail('payoutNothingToPay');
    const totals = totalsOf(settled, rows, carried);
    const below = Object.values(totals).some((t) => t.commissions + t.clawbacks > 0 && t.amount_cents < program.min_payout_cents);
    if (below && !force) throw fail('payoutBelowMinimum', { details: { min_payout_cents: Number(program.min_payout_cents) } });
    const payout = payoutView(await setPayoutTotals(trx, id, JSON.stringify(totals)));
    await recordAudit(trx, {
      programId: program.id,
      actor: by,
      action: 'payout.created',
      target: `payout:${id}`,
      details: { partner_id: partner.id, totals, ...(force && below ? { forced_below_minimum: Number(program.min_payout_cents) } : {}) },
      now,
    });
    await queueWebhookEvent(trx, { programId: program.id, type: 'payout.created', at: now, data: { program_id: program.id, ...payout } });
    return payout;
  });
}

type Row = Pick<SettledCommission, 'amount_cents' | 'currency' | 'status'>;

/** Per currency: due commissions minus clawbacks. */
function netByCurrency(rows: Row[]): Partial<Record<Currency, number>> {
  const net: Partial<Record<Currency, number>> = {};
  for (const r of rows) net[r.currency] = (net[r.currency] ?? 0) + (r.status === 'pending' ? 1 : -1) * Number(r.amount_cents);
  return net;
}

/** What the payout settled per currency, and per carried currency the balance left for the next payout. */
function totalsOf(settled: Row[], read: Row[], carried: Set<Currency>): PayoutTotals {
  const totals: PayoutTotals = {};
  const of = (currency: Currency) => (totals[currency] ??= { amount_cents: 0, commissions: 0, clawbacks: 0, carried_cents: 0 });
  for (const r of settled) {
    const t = of(r.currency);
    t.amount_cents += (r.status === 'pending' ? 1 : -1) * Number(r.amount_cents);
    if (r.status === 'pending') t.commissions += 1;
    else t.clawbacks += 1;
  }
  const net = netByCurrency(read);
  for (const currency of carried) of(currency).carried_cents = net[currency] ?? 0;
  return totals;
}
