import { fail } from '../../errors/service-error';
import { integerParam } from './params';

export const dayMs = 86_400_000;
/** The longest range a report covers: a leap year, inclusive. */
export const maxRangeDays = 366;

/** A report's UTC days, inclusive, and their count. */
export interface DayRange {
  from: string;
  to: string;
  days: number;
}

const dayText = /^\d{4}-\d{2}-\d{2}$/;

/** Midnight UTC of a `YYYY-MM-DD` day, or undefined when it is no calendar day (2026-02-30). */
export function dayStart(day: string): number | undefined {
  if (!dayText.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? undefined : ms;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function rangeOf(fromMs: number, days: number): DayRange {
  return { from: dayOf(fromMs), to: dayOf(fromMs + (days - 1) * dayMs), days };
}

/**
 * The days a performance report covers: `from` and `to` (both, inclusive, at most 366 days) or the last `days`
 * ending today (`now` from the injected clock); 30 days when neither is sent.
 */
export function reportRange(query: { days?: unknown; from?: unknown; to?: unknown }, now: number): DayRange {
  if (query.from === undefined && query.to === undefined) {
    const days = integerParam(query.days, { min: 1, max: 365, fallback: 30 }, () => fail('dashboardDaysInvalid')) as number;
    const today = Math.floor(now / dayMs) * dayMs;
    return rangeOf(today - (days - 1) * dayMs, days);
  }
  if (query.days !== undefined) throw fail('dashboardRangeWithDays');
  if (query.from === undefined || query.to === undefined) throw fail('dashboardRangeIncomplete');
  const from = typeof query.from === 'string' ? dayStart(query.from) : undefined;
  const to = typeof query.to === 'string' ? dayStart(query.to) : undefined;
  if (from === undefined || to === undefined) throw fail('dashboardRangeDayInvalid');
  if (from > to) throw fail('dashboardRangeOrder');
  const days = (to - from) / dayMs + 1;
  if (days > maxRangeDays) throw fail('dashboardRangeTooLong');
  return rangeOf(from, days);
}

/** The period of the same length just before `range`: what the report compares with. */
export function previousRange(range: DayRange): DayRange {
  return rangeOf((dayStart(range.from) as number) - range.days * dayMs, range.days);
}
