/** The UTC calendar day (`YYYY-MM-DD`) of an epoch-ms time: the key of the daily rollups. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
