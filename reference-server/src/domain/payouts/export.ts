import { fail } from '../../errors/service-error';
import { commissionsForExport } from '../../store/commissions';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { positiveId } from '../partners/fields';
import { partnerOf } from '../partners/partners';
import { commissionWireStatus } from '../commissions/status';
import { csvLine } from './csv';
import { dateBound } from './dates';

export const commissionCsvColumns = [
  'commission_id',
  'partner_id',
  'partner_name',
  'partner_email',
  'sale_id',
  'transaction_id',
  'sale_amount_cents',
  'amount_cents',
  'currency',
  'status',
  'sale_at',
  'created_at',
  'paid_at',
  'reversed_at',
  'payout_id',
  'kind',
  'due_at',
] as const;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The commissions created in [from, to] (optionally one partner's) as CSV, one row per commission, for paying
 * partners outside svc, and the file name naming the range. Without `from` the export starts at the first
 * commission, without `to` it ends now. `status` is the wire status now (pending while its hold runs); an adjustment
 * has no sale (empty sale columns) and `kind` says so; a commission reversed after payment keeps its `paid_at` and
 * `payout_id`.
 */
export async function commissionsCsv(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  query: Record<string, unknown>,
): Promise<{ csv: string; fileName: string }> {
  const from = query.from === undefined ? 0 : dateBound(query.from, 'start');
  const to = query.to === undefined ? deps.clock.now() : dateBound(query.to, 'end');
  if (from === undefined || to === undefined || from > to) throw fail('commissionsRangeInvalid');
  let partnerId: number | undefined;
  if (query.partner_id !== undefined) partnerId = (await partnerOf(deps, program, positiveId(query.partner_id, 'partnerIdInvalid'))).id;
  const now = deps.clock.now();
  const rows = await commissionsForExport(deps.db, { programId: program.id, from, to, ...(partnerId === undefined ? {} : { partnerId }) });
  let csv = csvLine([...commissionCsvColumns]);
  for (const r of rows) {
    const status = commissionWireStatus(r, now);
    csv += csvLine([
      r.id,
      r.partner_id,
      r.partner_name,
      r.partner_email,
      r.sale_id,
      r.transaction_id,
      r.sale_amount_cents === null ? null : Number(r.sale_amount_cents),
      Number(r.amount_cents),
      r.currency,
      status,
      iso(r.sale_at),
      iso(r.created_at),
      iso(r.paid_at),
      iso(r.reversed_at),
      r.payout_id,
      r.kind,
      iso(r.due_at),
    ]);
  }
  return { csv, fileName: `commissions-program-${program.id}-${rangeName(query.from, 'start')}-to-${rangeName(query.to, 'now')}.csv` };
}

/** A bound as the file name shows it: the date asked for (a date-time's day), or `start` / `now` when absent. */
function rangeName(value: unknown, absent: 'start' | 'now'): string {
  return typeof value === 'string' ? value.slice(0, 10) : absent;
}
