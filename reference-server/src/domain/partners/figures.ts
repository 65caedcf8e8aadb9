import type { components, Currency } from '@svc/types';
import type { Kysely } from 'kysely';
import { commissionTotals } from '../../store/commissions';
import { partnerCounts, partnerRevenue } from '../../store/partner-figures';
import type { Database } from '../../store/schema';

export type PartnerFigures = components['schemas']['PartnerFigures'];
type Amounts = Partial<Record<Currency, number>>;

const add = (target: Amounts, currency: Currency, cents: number) => {
  target[currency] = (target[currency] ?? 0) + Number(cents);
};

function empty(): PartnerFigures {
  return {
    clicks: 0,
    leads: 0,
    sales: 0,
    revenue_cents: {},
    commissions: { due_cents: {}, pending_cents: {}, held_cents: {}, paid_cents: {}, reversed_cents: {}, balance_cents: {} },
  };
}

/**
 * Each partner's figures (real events only). Counts and revenue come from the maintained daily rollups; the
 * commission states from one grouped read of the commissions, since paid and reversed are states of each row:
 * - due: earned, hold period over (`due_at` by `now`), not paid, not reversed (adjustments, negative ones too);
 * - pending: earned, the program's hold period still running: neither due nor in the balance until `due_at`;
 * - paid: marked paid by a payout (even if reversed later);
 * - held: waiting for the merchant (earned while the partner was suspended); neither due nor in the balance;
 * - declined: in no figure (never paid, never counted);
 * - reversed: taken back by a refund, before or after payment;
 * - balance: what the next payout pays — due minus what was reversed after payment and not yet netted (negative
 *   when the partner owes).
 */
export async function figuresByPartner(
  db: Kysely<Database>,
  now: number,
  programId: number,
  partnerId?: number,
): Promise<Map<number, PartnerFigures>> {
  const [counts, revenue, commissions] = await Promise.all([
    partnerCounts(db, programId, partnerId),
    partnerRevenue(db, programId, partnerId),
    commissionTotals(db, now, programId, partnerId),
  ]);
  const byPartner = new Map<number, PartnerFigures>();
  const of = (id: number) => {
    let figures = byPartner.get(id);
    if (!figures) byPartner.set(id, (figures = empty()));
    return figures;
  };
  for (const row of counts)
    Object.assign(of(row.partner_id), { clicks: Number(row.clicks), leads: Number(row.leads), sales: Number(row.sales) });
  for (const row of revenue) add(of(row.partner_id).revenue_cents, row.currency, row.revenue_cents);
  for (const row of commissions) {
    const c = of(row.partner_id).commissions;
    const cents = Number(row.cents);
    const paid = Number(row.paid) === 1;
    if (row.status === 'declined') continue;
    if (row.status === 'held') {
      add(c.held_cents, row.currency, cents);
      continue;
    }
    if (row.status === 'reversed') {
      add(c.reversed_cents, row.currency, cents);
      if (paid && Number(row.settled) === 0) add(c.balance_cents, row.currency, -cents);
    } else if (!paid && Number(row.due) === 0) {
      add(c.pending_cents, row.currency, cents);
    } else if (!paid) {
      add(c.due_cents, row.currency, cents);
      add(c.balance_cents, row.currency, cents);
    }
    if (paid) add(c.paid_cents, row.currency, cents);
  }
  return byPartner;
}

export function figuresOf(map: Map<number, PartnerFigures>, partnerId: number): PartnerFigures {
  return map.get(partnerId) ?? empty();
}
