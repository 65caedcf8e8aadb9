import type { components, Currency } from '@svc/types';
import { amountsByDay, amountsByPartner, clickCohortByPartner, countsByDay, countsByPartner } from '../../store/dashboard';
import type { DomainContext } from '../context';
import { dayMs, dayStart, type DayRange, previousRange } from './report-range';

type Performance = components['schemas']['DashboardPerformanceResult']['data'];
type Rates = components['schemas']['ConversionRates'];
type Amounts = Partial<Record<Currency, number>>;
type Db = DomainContext['db'];

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** Clicks of a period and, of the customers those clicks made, how many became leads and how many bought. */
export interface Cohort {
  clicks: number;
  leads: number;
  buyers: number;
}

/** The rates on unique customers (spec/openapi.yaml, `ConversionRates`): each at most 1, as leads ≤ clicks and buyers ≤ leads. */
export function conversionRates(cohort: Cohort): Rates {
  return {
    click_to_lead: ratio(cohort.leads, cohort.clicks),
    lead_to_sale: ratio(cohort.buyers, cohort.leads),
    click_to_sale: ratio(cohort.buyers, cohort.clicks),
  };
}

function addAmount(target: Amounts, currency: Currency, cents: number): void {
  target[currency] = (target[currency] ?? 0) + Number(cents);
}

interface Figures {
  clicks: number;
  leads: number;
  sales: number;
  revenue_cents: Amounts;
  commissions_cents: Amounts;
}
const noFigures = (): Figures => ({ clicks: 0, leads: 0, sales: 0, revenue_cents: {}, commissions_cents: {} });

/** One period's figures: by day, by partner, the totals and the click cohort by partner. */
async function periodFigures(db: Db, programId: number, range: DayRange) {
  const fromMs = dayStart(range.from) as number;
  const [dayCounts, dayAmounts, partnerCounts, partnerAmounts, cohorts] = await Promise.all([
    countsByDay(db, programId, range.from, range.to),
    amountsByDay(db, programId, range.from, range.to),
    countsByPartner(db, programId, range.from, range.to),
    amountsByPartner(db, programId, range.from, range.to),
    clickCohortByPartner(db, programId, fromMs, fromMs + range.days * dayMs),
  ]);
  const dates = Array.from({ length: range.days }, (_, i) => new Date(fromMs + i * dayMs).toISOString().slice(0, 10));
  const byDay = new Map(dates.map((date) => [date, { date, ...noFigures() }]));
  const totals = noFigures();
  for (const row of dayCounts) {
    const day = byDay.get(row.day);
    if (!day) continue;
    Object.assign(day, { clicks: Number(row.clicks), leads: Number(row.leads), sales: Number(row.sales) });
    totals.clicks += day.clicks;
    totals.leads += day.leads;
    totals.sales += day.sales;
  }
  for (const row of dayAmounts) {
    const day = byDay.get(row.day);
    if (!day) continue;
    addAmount(day.revenue_cents, row.currency, row.revenue_cents);
    addAmount(day.commissions_cents, row.currency, row.commissions_cents);
    addAmount(totals.revenue_cents, row.currency, row.revenue_cents);
    addAmount(totals.commissions_cents, row.currency, row.commissions_cents);
  }

  const cohortOf = new Map(cohorts.map((row) => [Number(row.partner_id), { leads: Number(row.leads), buyers: Number(row.buyers) }]));
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
  const cohort = (partnerId: number, clicks: number): Cohort => ({ clicks, leads: 0, buyers: 0, ...cohortOf.get(partnerId) });
  const programCohort: Cohort = { clicks: totals.clicks, leads: 0, buyers: 0 };
  for (const row of cohortOf.values()) {
    programCohort.leads += row.leads;
    programCohort.buyers += row.buyers;
  }
  return {
    totals,
    conversion_rates: conversionRates(programCohort),
    by_day: [...byDay.values()],
    by_partner: partners.map((p) => ({ ...p, conversion_rates: conversionRates(cohort(p.partner_id, p.clicks)) })),
  };
}

/**
 * spec/rules.md "Dashboard routes", performance, for the days of `range` and the period of the same length before it. Counts and
 * amounts come from the maintained daily rollups (cost: days × partners, never the number of events); the conversion
 * rates from the customers the period's clicks made (at most one per click). Real events only.
 */
export async function programPerformance(deps: Pick<DomainContext, 'db'>, programId: number, range: DayRange): Promise<Performance> {
  const before = previousRange(range);
  const [current, previous] = await Promise.all([periodFigures(deps.db, programId, range), periodFigures(deps.db, programId, before)]);
  return {
    from: range.from,
    to: range.to,
    ...current,
    previous: { from: before.from, to: before.to, totals: previous.totals, conversion_rates: previous.conversion_rates },
  };
}
