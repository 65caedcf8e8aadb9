import type { Currency, PartnerSummary } from '@svc/types';
import type { Colours } from '../../output/colour';
import { tableLines } from '../../output/table';

/** `USD 20.00, EUR 5.00` (cents shown in major units; VND has none); `-` when empty. */
export function money(amounts: Partial<Record<Currency, number>>): string {
  const parts = Object.entries(amounts).map(([currency, cents]) =>
    currency === 'VND' ? `${currency} ${cents}` : `${currency} ${((cents ?? 0) / 100).toFixed(2)}`,
  );
  return parts.length ? parts.join(', ') : '-';
}

/** `percent 20` or `fixed 500` (cents), `*` when the partner's own terms rather than the program's. */
function terms(t: PartnerSummary['terms']): string {
  return `${t.commission_type} ${t.commission_rate}${t.source === 'partner' ? '*' : ''}`;
}

/** One aligned line per partner: id, name, email, status, terms in force, counts, revenue and commissions due and paid. */
export function partnerLines(partners: PartnerSummary[], c: Colours): string[] {
  if (partners.length === 0) return [c.dim('(no partners yet)')];
  const rows = partners.map((p) => [
    String(p.id),
    p.name,
    p.email ?? '-',
    p.status,
    terms(p.terms),
    `${p.figures.clicks}/${p.figures.leads}/${p.figures.sales}`,
    money(p.figures.revenue_cents),
    money(p.figures.commissions.due_cents),
    money(p.figures.commissions.paid_cents),
  ]);
  const header = ['ID', 'NAME', 'EMAIL', 'STATUS', 'TERMS', 'CLICKS/LEADS/SALES', 'REVENUE', 'DUE', 'PAID'];
  return tableLines(header, rows, c);
}
