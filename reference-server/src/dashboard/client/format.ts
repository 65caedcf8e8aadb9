/** How the pages write amounts, rates and counts. */

/** Amounts per currency in its smallest unit: `12.50 USD + 3.00 EUR` (VND has no minor unit). */
export function money(amounts: Record<string, number> | null | undefined): string {
  const keys = Object.keys(amounts ?? {});
  if (keys.length === 0) return '0';
  return keys.map((c) => (c === 'VND' ? String(amounts?.[c] ?? 0) : ((amounts?.[c] ?? 0) / 100).toFixed(2)) + ' ' + c).join(' + ');
}

/** A rate between 0 and 1 as a percentage; `–` when there is none. */
export function pct(r: number | null | undefined): string {
  return r === null || r === undefined ? '–' : (r * 100).toFixed(1) + '%';
}

export function count(n: number, one: string, many: string): string {
  return n + ' ' + (n === 1 ? one : many);
}
