import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { testEventsSince } from '../../store/dashboard';
import type { DomainContext } from '../context';
import { eventView } from './event-view';

type Check = components['schemas']['CheckTestEventsResponse']['data'];

const hourMs = 3_600_000;

/** Reads `since` (ISO 8601 with an offset); absent → the last hour. */
export function sinceFrom(value: unknown, now: number): number {
  if (value === undefined) return now - hourMs;
  const at = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T.+(Z|[+-]\d{2}:\d{2})$/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(at)) throw fail('dashboardSinceInvalid');
  return at;
}

/** spec/rules.md "Dashboard routes", check-test-events: which kinds of test event have landed since `since`. */
export async function checkTestEvents(deps: Pick<DomainContext, 'db'>, programId: number, since: number): Promise<Check> {
  const rows = await testEventsSince(deps.db, { programId, limit: 50, since });
  const landed = (type: 'click' | 'lead' | 'sale') => rows.some((row) => row.type === type);
  const [click, lead, sale] = [landed('click'), landed('lead'), landed('sale')];
  return { click, lead, sale, all_landed: click && lead && sale, events: rows.map(eventView) };
}
