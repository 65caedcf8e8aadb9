import type { CliStatusResponse } from '@svc/types';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { readMetrics } from '../metrics/read';
import { programView } from '../programs/view';
import { computeReadiness } from '../readiness/compute';

/** spec/rules.md "CLI routes", GET /status: the key's program (key masked), its metrics and the readiness verdict. */
export async function programStatus(deps: DomainContext, program: Program): Promise<CliStatusResponse['data']> {
  deps.faults.check('cli');
  const [metrics, readiness] = await Promise.all([readMetrics(deps.db, program.id), computeReadiness(deps, program)]);
  return { program: programView(program), metrics, readiness };
}
