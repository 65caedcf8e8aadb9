const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const dayMs = 86_400_000;

/**
 * A date bound from a query or body: a UTC day (`YYYY-MM-DD`: its first millisecond for `start`, its last for
 * `end`, so `to=2025-03-31` includes the whole of March 31) or an ISO 8601 date-time with a zone. Undefined when
 * it is neither.
 */
export function dateBound(value: unknown, edge: 'start' | 'end'): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (dayPattern.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== value) return undefined;
    return edge === 'start' ? start : start + dayMs - 1;
  }
  if (!dateTimePattern.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
