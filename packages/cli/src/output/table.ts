import type { Colours } from './colour';

/** Columns padded to their widest cell, two spaces apart, the header dimmed: the listings of `svc` commands. */
export function tableLines(header: string[], rows: string[][], c: Colours): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [c.dim(line(header)), ...rows.map(line)];
}
