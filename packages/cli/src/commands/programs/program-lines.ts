import type { CliProgramsResponse } from '@svc/types';
import type { Colours } from '../../output/colour';

type Listed = CliProgramsResponse['data']['programs'][number];

/** One aligned line per program: id, name, domain, commission, role and the masked key. */
export function programLines(programs: Listed[], c: Colours): string[] {
  if (programs.length === 0) return [c.dim('(no programs yet)')];
  const rows = programs.map((p) => [String(p.id), p.name, p.domain, `${p.commission_type} ${p.commission_rate}`, p.role, p.api_token]);
  const header = ['ID', 'NAME', 'DOMAIN', 'COMMISSION', 'ROLE', 'KEY'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [c.dim(line(header)), ...rows.map(line)];
}
