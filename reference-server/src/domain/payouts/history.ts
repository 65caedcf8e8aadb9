import { fail } from '../../errors/service-error';
import { commissionsOfPayout, findPayoutInProgram, listPayouts } from '../../store/payouts';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { positiveId } from '../partners/fields';
import { partnerOf } from '../partners/partners';
import { csvLine } from './csv';
import { payoutCommissionView, payoutView, type PayoutDetailWire, type PayoutWire } from './view';

const defaultLimit = 50;

/**
 * A program's payouts, newest first, optionally of one partner; `limit` (1 to 100, default 50) per page and
 * `next_cursor` (the last id shown) for the next page, null on the last.
 */
export async function payoutHistory(
  deps: Pick<DomainContext, 'db'>,
  program: Program,
  query: Record<string, unknown>,
): Promise<{ payouts: PayoutWire[]; next_cursor: string | null }> {
  const limit = query.limit === undefined ? defaultLimit : pageNumber(query.limit);
  if (limit > 100) throw fail('payoutsPageInvalid');
  const beforeId = query.cursor === undefined ? undefined : pageNumber(query.cursor);
  let partnerId: number | undefined;
  if (query.partner_id !== undefined) partnerId = (await partnerOf(deps, program, positiveId(query.partner_id, 'partnerIdInvalid'))).id;
  const rows = await listPayouts(deps.db, program.id, { limit: limit + 1, beforeId, partnerId });
  const page = rows.slice(0, limit).map(payoutView);
  return { payouts: page, next_cursor: rows.length > limit ? String(page[page.length - 1]!.id) : null };
}

function pageNumber(value: unknown): number {
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) throw fail('payoutsPageInvalid');
  return Number(value);
}

/** One payout of the program with the commissions it paid and the clawbacks it netted. */
export async function payoutDetail(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  payoutId: unknown,
): Promise<PayoutDetailWire> {
  const id = positiveId(payoutId, 'payoutIdInvalid');
  const row = await findPayoutInProgram(deps.db, program.id, id);
  if (!row) throw fail('payoutNotFound');
  const commissions = await commissionsOfPayout(deps.db, id);
  return { ...payoutView(row), commissions: commissions.map((c) => payoutCommissionView(id, c, deps.clock.now())) };
}

export const payoutCsvColumns = [
  'payout_id',
  'partner_id',
  'commission_id',
  'sale_id',
  'transaction_id',
  'settled_as',
  'amount_cents',
  'currency',
  'created_at',
  'paid_at',
  'reversed_at',
  'reference',
  'method',
] as const;

/** A payout as CSV, one row per commission it settled; a clawback's amount is negative (it lowered the payout). */
export async function payoutCsv(deps: Pick<DomainContext, 'db' | 'clock'>, program: Program, payoutId: unknown): Promise<string> {
  const payout = await payoutDetail(deps, program, payoutId);
  let csv = csvLine([...payoutCsvColumns]);
  for (const { settled_as, transaction_id, commission: c } of payout.commissions) {
    const sign = settled_as === 'paid' ? 1 : -1;
    csv += csvLine([
      payout.id,
      payout.partner_id,
      c.id,
      c.sale_id,
      transaction_id,
      settled_as,
      sign * c.amount_cents,
      c.currency,
      c.created_at,
      c.paid_at,
      c.reversed_at,
      payout.reference,
      payout.method,
    ]);
  }
  return csv;
}
