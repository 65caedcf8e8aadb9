import { cpus, totalmem } from 'node:os';
import { privateDatabase } from '../test/scale/databases';
import { benchEventScale, type EventScaleBench } from './events-scale';
import { writeReport } from './report';
import { benchStartUp, type StartUpBench } from './start-up';
import { benchPostgresUrl } from './processes';
import { benchTracking, medianPairs, type TrackingBench, type TrackingPair } from './tracking';

/**
 * `pnpm bench`: click, lead and sale against the bare Fastify baseline on the SQLite file store and on PostgreSQL
 * (there through one server and through two on one database), the start-up of the testing kit, then dashboard and
 * readiness latency at 10k and 1M events; writes BENCHMARKS.md at the root. BENCH_SECONDS (default 10),
 * BENCH_CONNECTIONS (50), BENCH_EVENTS (1000000), BENCH_STORES (sqlite,postgres), BENCH_ONLY (tracking, start-up or
 * scale), BENCH_REPEATS (3: the tracking pairs are measured that many times, the median shown), BENCH_START_UP_RUNS
 * (20).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const events = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const startUpRuns = Number(process.env.BENCH_START_UP_RUNS ?? 20);
const stores = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');
/** `tracking`, `start-up` or `scale` runs that part only (the report then holds that part). */
const only = process.env.BENCH_ONLY;

const describe = (pair: TrackingPair) => {
  const { server, bare } = pair;
  const heap = server.peakHeap
    ? ` (heap ${server.peakHeap.usedMb.toFixed(0)} used of ${server.peakHeap.totalMb.toFixed(0)}, external ${server.peakHeap.externalMb.toFixed(0)})`
    : '';
  return (
    `${pair.route.padEnd(6)} ${server.rps.toFixed(0).padStart(6)} req/s (bare ${bare.rps.toFixed(0)}, ratio ${(server.rps / bare.rps).toFixed(2)})` +
    `  p50 ${server.p50} ms  p99 ${server.p99} ms (bare ${bare.p99})  CPU ${server.cpuUsPerRequest.toFixed(0)} µs/req  cores busy ${server.hostBusyPct.toFixed(0)} %` +
    `  peak RSS ${server.peakRssMb.toFixed(0)} MB${heap}  non-2xx ${server.non2xx}`
  );
};

/** `repeats` tracking runs, each on a fresh database, and their median. */
async function trackingRepeats(store: string, label: string, storeUrl: string | undefined, servers: number): Promise<TrackingBench> {
  const runs: TrackingBench[] = [];
  for (let repeat = 1; repeat <= repeats; repeat++) {
    const db = privateDatabase(`bench_${store}`, storeUrl);
    try {
      console.log(`\n== ${label}: tracking routes, ${connections} connections, ${seconds} s each (repeat ${repeat} of ${repeats})`);
      const result = await benchTracking(label, db.url, { seconds, connections, servers });
      for (const pair of result.pairs) console.log(describe(pair));
      runs.push(result);
    } finally {
      await db.dispose();
    }
  }
  return medianPairs(label, runs);
}

const tracking: TrackingBench[] = [];
const scale: EventScaleBench[] = [];
let startUp: StartUpBench | undefined;
for (const store of stores) {
  // A fresh SQLite file or PostgreSQL schema per store, removed afterwards; named per store, not by DATABASE_URL.
  // SQLite passes '' rather than undefined: undefined would take privateDatabase's default, the suite's DATABASE_URL
  // (test/scale/databases.ts), and the "sqlite" rows would measure PostgreSQL whenever DATABASE_URL names it.
  const storeUrl = store === 'postgres' ? benchPostgresUrl : '';
  if (only === undefined || only === 'tracking') {
    tracking.push(await trackingRepeats(store, store, storeUrl, 1));
    // Servers that add up: the same load through two processes on one database (SQLite is one process's file).
    if (store === 'postgres') tracking.push(await trackingRepeats(store, 'postgres ×2', storeUrl, 2));
  }
  if (only === undefined || only === 'scale') {
    const scaleDb = privateDatabase(`bench_events_${store}`, storeUrl);
    try {
      console.log(`\n== ${store}: dashboard and readiness at 10k and ${events} events`);
      const result = await benchEventScale(store, scaleDb, { events, connections: 10, seconds: Math.max(3, Math.round(seconds / 2)) });
      for (const row of result.rows)
        console.log(`${row.route.padEnd(44)} ${row.small.p50}/${row.small.p99} ms → ${row.large.p50}/${row.large.p99} ms (p50/p99)`);
      scale.push(result);
    } finally {
      await scaleDb.dispose();
    }
  }
}
if (only === undefined || only === 'start-up') {
  console.log(`\n== start-up: startReferenceServer() on SQLite in memory, ${startUpRuns} processes`);
  startUp = await benchStartUp(startUpRuns);
  console.log(
    `call to first answer ${startUp.callToAnswerMs.toFixed(0)} ms (median; seen ${startUp.callToAnswerSeen.map((v) => v.toFixed(0)).join(', ')})` +
      `  import ${startUp.importMs.toFixed(0)} ms  process ${startUp.processMs.toFixed(0)} ms`,
  );
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform} ${process.arch}`;
writeReport({ machine, seconds, connections, events, repeats, tracking, scale, startUp });
console.log('\nwrote BENCHMARKS.md');
