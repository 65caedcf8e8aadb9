import type { components } from '@svc/types';
import type { Role } from '../../store/accounts';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { programCounters, readMetrics } from '../metrics/read';
import { programView } from '../programs/view';

type Status = components['schemas']['DashboardStatusResult']['data'];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** spec/rules.md "Dashboard routes", status: the program's settings (key masked), the viewer's role, metrics and integration state. */
export async function dashboardStatus(deps: Pick<DomainContext, 'db'>, program: Program, role: Role): Promise<Status> {
  const [metrics, counters] = await Promise.all([readMetrics(deps.db, program.id), programCounters(deps.db, program.id)]);
  return {
    program: programView(program),
    role,
    metrics,
    integration: {
      tracker_seen: counters.clicks > 0,
      leads_seen: counters.leads > 0,
      sales_seen: counters.sales > 0,
      processor_connected: program.processor_account !== null,
      processor_account: program.processor_account,
      last_event_at: iso(counters.lastEventAt),
    },
  };
}
