import type { components, Currency } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Role } from '../../store/accounts';
import { payableCommissions, settleCommissions } from '../../store/commissions';
import { lockRow } from '../../store/row-lock';
import type { Program } from '../../store/schema';
import type { DomainDeps } from '../deps';
import { positiveId } from '../partners/fields';
import { partnerOf } from '../partners/partners';
import { dateBound } from './dates';

export type PayoutResult = components['schemas']['PayoutResult'];
type Amounts = Partial<Record<Currency, number>>;

/**
 * Records that the merchant paid a partner (owners only): every due commission (its hold period over by now, on the
 * server clock; adjustments of either sign included) created by `through` becomes paid,
 * netted against commissions reversed after an earlier payment (the partner's negative balance). Per currency:
 * when what is owed back exceeds what is due, nothing in that currency is settled and the balance carries to the
 * next payout (`carried_cents`). Repeating the call settles nothing more: paid rows are never paid again, and
 * reversed rows never become due. Payouts of one partner run one at a time (the partner's row is locked), and the
 * answer is made from the rows the UPDATEs changed, so two simultaneous calls never both report the same money.
 */
export async function recordPayout(
  deps: Pick<DomainDeps, 'db' | 'clock'>,
  program: Program,
  role: Role,
  body: Record<string, unknown>,
): Promise<PayoutResult> {
  if (role !== 'owner') throw fail('payoutOwnerOnly');
  if (body.partner_id === undefined) throw fail('partnerIdInvalid');
  const partner = await partnerOf(deps, program, positiveId(body.partner_id, 'partnerIdInvalid'));
  const through = dateBound(body.through, 'end');
  if (through === undefined) throw fail('payoutThroughInvalid');
  const now = deps.clock.now();

  return deps.db.transaction().execute(async (trx) => {
    // One payout of the partner at a time: a second one reads the commissions once the first has committed.
    await lockRow(trx, 'partners', partner.id);
    const rows = await payableCommissions(trx, program.id, partner.id, through, now);
    const net = netByCurrency(rows);
    const carried: Amounts = {};
    for (const [currency, cents] of Object.entries(net) as [Currency, number][]) if (cents < 0) carried[currency] = cents;
    const ids = { due: [] as number[], clawbacks: [] as number[] };
    for (const r of rows) {
      if (carried[r.currency] !== undefined) continue;
      (r.status === 'pending' ? ids.due : ids.clawbacks).push(r.id);
    }
    // The answer counts what this call settled, never what it read: a row another payout settled first is not ours.
    const settled = await settleCommissions(trx, ids, now);
    return {
      partner_id: partner.id,
      through: new Date(through).toISOString(),
      commissions_paid: settled.filter((r) => r.status === 'pending').length,
      clawbacks_settled: settled.filter((r) => r.status === 'reversed').length,
      paid_cents: netByCurrency(settled),
      carried_cents: carried,
    };
  });
}

/** Per currency: due commissions minus clawbacks. */
function netByCurrency(rows: { amount_cents: number; currency: Currency; status: 'pending' | 'reversed' }[]): Amounts {
  const net: Amounts = {};
  for (const r of rows) net[r.currency] = (net[r.currency] ?? 0) + (r.status === 'pending' ? 1 : -1) * Number(r.amount_cents);
  return net;
}
