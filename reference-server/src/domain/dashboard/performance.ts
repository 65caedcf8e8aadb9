import type { components, Currency } from '@svc/types';
import { amountsByDay, amountsByPartner, countsByDay, countsByPartner } from '../../store/dashboard';
import type { DomainContext } from '../context';
import { utcDay } from '../metrics/day';
import { readMetrics } from '../metrics/read';

type Performance = components['schemas']['DashboardPerformanceResult']['data'];
type Rates = components['schemas']['ConversionRates'];
type Amounts = Partial<Record<Currency, number>>;

const dayMs = 86_400_000;
const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

export function conversionRates(counts: { clicks: number; leads: number; sales: number }): Rates {
  return {
    click_to_lead: ratio(counts.leads, counts.clicks),
    lead_to_sale: ratio(counts.sales, counts.leads),
    click_to_sale: ratio(counts.sales, counts.clicks),
  };
}

function addAmount(target: Amounts, currency: Currency, cents: number): void {
  target[currency] = (target[currency] ?? 0) + Number(cents);
}

/**
 * spec/rules.md "Dashboard routes", performance: read only from the maintained aggregates (program metrics and the daily
 * rollups), so the cost depends on days × partners, never on the number of events. Real events only.
 */
export async function programPerformance(deps: Pick<DomainContext, 'db' | 'clock'>, programId: number, days: number): Promise<Performance> {
  const today = deps.clock.now();
  const dates = Array.from({ length: days }, (_, i) => utcDay(today - (days - 1 - i) * dayMs));
  const from = dates[0] as string;
  const to = dates[dates.length - 1] as string;
  const [totals, dayCounts, dayAmounts, partnerCounts, partnerAmounts] = await Promise.all([
    readMetrics(deps.db, programId),
    countsByDay(deps.db, programId, from, to),
    amountsByDay(deps.db, programId, from, to),
    countsByPartner(deps.db, programId),
    amountsByPartner(deps.db, programId),
  ]);

  const byDay = new Map(dates.map((date) => [date, { date, clicks: 0, leads: 0, sales: 0, revenue_cents: {}, commissions_cents: {} }]));
  for (const row of dayCounts) {
    const day = byDay.get(row.day);
    if (day) Object.assign(day, { clicks: Number(row.clicks), leads: Number(row.leads), sales: Number(row.sales) });
  }
  for (const row of dayAmounts) {
    const day = byDay.get(row.day);
    if (!day) continue;
    addAmount(day.revenue_cents, row.currency, row.revenue_cents);
    addAmount(day.commissions_cents, row.currency, row.commissions_cents);
  }

  const partners = partnerCounts.map((row) => ({
    partner_id: row.partner_id,
    partner_name: row.name,
    clicks: Number(row.clicks),
    leads: Number(row.leads),
    sales: Number(row.sales),
    revenue_cents: {},
    commissions_cents: {},
  }));
  const partnerById = new Map(partners.map((p) => [p.partner_id, p]));
  for (const row of partnerAmounts) {
    const partner = partnerById.get(row.partner_id);
    if (!partner) continue;
    addAmount(partner.revenue_cents, row.currency, row.revenue_cents);
    addAmount(partner.commissions_cents, row.currency, row.commissions_cents);
  }
  partners.sort((a, b) => b.sales - a.sales || b.leads - a.leads || b.clicks - a.clicks || a.partner_id - b.partner_id);

  return {
    totals,
    conversion_rates: conversionRates(totals),
    by_day: [...byDay.values()],
    by_partner: partners.map((p) => ({ ...p, conversion_rates: conversionRates(p) })),
  };
}
