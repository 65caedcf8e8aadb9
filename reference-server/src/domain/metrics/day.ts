const DAY_MS = 86_400_000;

/** The last day formatted, by its first millisecond: nearly every event of a moment falls on the same day. */
let last = { start: NaN, day: '' };

/** The UTC calendar day (`YYYY-MM-DD`) of an epoch-ms time: the key of the daily rollups. */
export function utcDay(ms: number): string {
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  if (start !== last.start) last = { start, day: new Date(start).toISOString().slice(0, 10) };
  return last.day;
}
