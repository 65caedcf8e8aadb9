import { readFileSync } from 'node:fs';
import autocannon, { type RequestSpec } from 'autocannon';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Peak resident memory of the server process during the run, in MB. */
  peakRssMb: number;
  statuses: Record<string, number>;
}

export interface LoadOptions {
  name: string;
  url: string;
  pid: number;
  seconds: number;
  connections: number;
  request: RequestSpec;
}

/** Resident set size of a process (Linux `/proc`), in MB. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** One autocannon run against `url`, sampling the server's RSS every 100 ms. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  let peak = rssMb(options.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(options.pid))), 100);
  try {
    const result = await autocannon({
      url: options.url,
      connections: options.connections,
      duration: options.seconds,
      requests: [options.request],
    });
    const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
    return {
      name: options.name,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      peakRssMb: peak,
      statuses,
    };
  } finally {
    clearInterval(sampler);
  }
}
