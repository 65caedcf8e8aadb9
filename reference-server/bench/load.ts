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
  /**
   * What grew, from the server's own samples (bench/memory-sampler.mjs) in the run's window: the peaks of V8's heap
   * (reserved and used) and of memory outside it (Buffers, native); absent without samples.
   */
  peakHeap?: { totalMb: number; usedMb: number; externalMb: number };
  /**
   * The server process's CPU time (user and system) per request, in µs: what a request costs, steadier than req/s
   * on shared cores, where the load generator and the neighbours take turns with the server.
   */
  cpuUsPerRequest: number;
  /**
   * How busy the machine's cores were during the run, in % (all processes: the server, the database, the load
   * generator, the neighbours). Near 100, a run is bound by the cores, and another process can only share them.
   */
  hostBusyPct: number;
  statuses: Record<string, number>;
}

export interface LoadOptions {
  name: string;
  url: string;
  pid: number;
  seconds: number;
  connections: number;
  request: RequestSpec;
  /** The server's memory samples (bench/memory-sampler.mjs). */
  memoryFile?: string;
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

/** CPU time (user and system) a process used so far (Linux `/proc`), in ms; 0 when it cannot be read. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * The machine's CPU time so far, all cores (Linux `/proc/stat`'s first line: user, nice, system, idle, iowait, irq,
 * softirq, steal), in clock ticks: busy and in all. Steal, time the hypervisor gave to other machines, counts as busy:
 * the cores were not ours to use.
 */
function hostTicks(): { busy: number; total: number } {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((sum, value) => sum + value, 0);
    return { busy: total - ticks[3]! - ticks[4]!, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** % of the machine's CPU time busy between two readings of `hostTicks`. */
function busyPct(before: ReturnType<typeof hostTicks>, after: ReturnType<typeof hostTicks>): number {
  const total = after.total - before.total;
  return total > 0 ? ((after.busy - before.busy) * 100) / total : 0;
}

const mb = (bytes: number) => bytes / 2 ** 20;

/** Peaks of the samples the server wrote between `from` and `to` (epoch ms); undefined when there are none. */
function heapPeaks(file: string, from: number, to: number): LoadResult['peakHeap'] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let peaks: LoadResult['peakHeap'];
  for (const line of text.split('\n')) {
    const [at, , heapTotal, heapUsed, external] = line.split(' ').map(Number);
    if (at === undefined || !(at >= from && at <= to)) continue;
    peaks = {
      totalMb: Math.max(peaks?.totalMb ?? 0, mb(heapTotal!)),
      usedMb: Math.max(peaks?.usedMb ?? 0, mb(heapUsed!)),
      externalMb: Math.max(peaks?.externalMb ?? 0, mb(external!)),
    };
  }
  return peaks;
}

/** One autocannon run against `url`, sampling the server's RSS every 100 ms. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const startedAt = Date.now();
  let peak = rssMb(options.pid);
  const cpuBefore = cpuMs(options.pid);
  const hostBefore = hostTicks();
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
      cpuUsPerRequest: result.requests.total > 0 ? ((cpuMs(options.pid) - cpuBefore) * 1000) / result.requests.total : 0,
      hostBusyPct: busyPct(hostBefore, hostTicks()),
      statuses,
      ...(options.memoryFile ? { peakHeap: heapPeaks(options.memoryFile, startedAt, Date.now()) } : {}),
    };
  } finally {
    clearInterval(sampler);
  }
}
