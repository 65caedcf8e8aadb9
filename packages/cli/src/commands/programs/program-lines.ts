import type { CliProgramsResponse } from '@svc/types';
import type { Colours } from '../../output/colour';
import { tableLines } from '../../output/table';

type Listed = CliProgramsResponse['data']['programs'][number];

/** One aligned line per program: id, name, domain, commission, role and the masked key. */
export function programLines(programs: Listed[], c: Colours): string[] {
  if (programs.length === 0) return [c.dim('(no programs yet)')];
  const rows = programs.map((p) => [String(p.id), p.name, p.domain, `${p.commission_type} ${p.commission_rate}`, p.role, p.api_token]);
  const header = ['ID', 'NAME', 'DOMAIN', 'COMMISSION', 'ROLE', 'KEY'];
  return tableLines(header, rows, c);
}
