import type { Readiness } from '@svc/types';
import { countActiveLinks } from '../../store/links';
import { allowedOriginsOf } from '../../store/programs';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { programCounters } from '../metrics/read';
import { nextStep } from './next-step';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const seen = (count: number, last: number | null) => ({ seen: count > 0, count, last_seen_at: iso(last) });

/**
 * The readiness verdict (spec/openapi.yaml `ReadinessFields`, **Decision**): what is configured, which real
 * events have been seen, test events apart, and the next step. Read from the incremental metrics, never a scan.
 */
export async function computeReadiness(deps: DomainContext, program: Program): Promise<Readiness> {
  deps.faults.check('readiness');
  const now = deps.clock.now();
  const [counters, activeLinks] = await Promise.all([programCounters(deps.db, program.id), countActiveLinks(deps.db, program.id)]);
  const keyRetired = program.key_rotate_by !== null && now >= program.key_rotate_by;
  const state = {
    activeLinks,
    click: counters.clicks > 0,
    lead: counters.leads > 0,
    sale: counters.sales > 0,
    keyMarked: program.key_rotate_by !== null,
  };
  const ready = state.click && state.lead && state.sale && !keyRetired;
  const anySeen = state.click || state.lead || state.sale;
  return {
    program_id: program.id,
    ready,
    verdict: ready ? 'ready' : anySeen ? 'in_progress' : 'not_started',
    configuration: {
      attribution_window_days: program.attribution_window_days,
      lead_auth: program.lead_auth,
      allowed_origins: allowedOriginsOf(program),
      commission_type: program.commission_type,
      commission_rate: program.commission_rate,
      active_links: activeLinks,
      processor_connected: program.processor_account !== null,
      key_rotation: program.key_rotate_by === null ? null : { rotate_by: new Date(program.key_rotate_by).toISOString() },
    },
    seen: {
      click: seen(counters.clicks, counters.lastClickAt),
      lead: seen(counters.leads, counters.lastLeadAt),
      sale: seen(counters.sales, counters.lastSaleAt),
      processor_sale: seen(counters.processorSales, counters.lastProcessorSaleAt),
    },
    test_events: { click: counters.testClicks, lead: counters.testLeads, sale: counters.testSales },
    next_step: ready ? null : nextStep(state),
    checked_at: new Date(now).toISOString(),
  };
}
