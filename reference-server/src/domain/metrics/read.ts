import type { Currency, Metrics } from '@svc/types';
import type { Kysely } from 'kysely';
import { readAmountTotals, readProgramMetrics } from '../../store/engine';
import type { Database } from '../../store/schema';

/** The program's counters as stored (zeros before anything was counted). */
export async function programCounters(db: Kysely<Database>, programId: number) {
  const row = await readProgramMetrics(db, programId);
  return {
    clicks: row?.clicks ?? 0,
    leads: row?.leads ?? 0,
    sales: row?.sales ?? 0,
    processorSales: row?.processor_sales ?? 0,
    testClicks: row?.test_clicks ?? 0,
    testLeads: row?.test_leads ?? 0,
    testSales: row?.test_sales ?? 0,
    lastClickAt: row?.last_click_at ?? null,
    lastLeadAt: row?.last_lead_at ?? null,
    lastSaleAt: row?.last_sale_at ?? null,
    lastProcessorSaleAt: row?.last_processor_sale_at ?? null,
    lastEventAt: row?.last_event_at ?? null,
  };
}

/** The `Metrics` of a program (real events only): counters plus money by currency, never added across currencies. */
export async function readMetrics(db: Kysely<Database>, programId: number): Promise<Metrics> {
  const [counters, amounts] = await Promise.all([programCounters(db, programId), readAmountTotals(db, programId)]);
  const revenue: Partial<Record<Currency, number>> = {};
  const commissions: Partial<Record<Currency, number>> = {};
  for (const row of amounts) {
    revenue[row.currency] = Number(row.revenue_cents);
    commissions[row.currency] = Number(row.commissions_cents);
  }
  return { clicks: counters.clicks, leads: counters.leads, sales: counters.sales, revenue_cents: revenue, commissions_cents: commissions };
}
