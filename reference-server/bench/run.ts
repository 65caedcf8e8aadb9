import { cpus, totalmem } from 'node:os';
import { privateDatabase } from '../test/scale/databases';
import { benchEventScale, type EventScaleBench } from './events-scale';
import { writeReport } from './report';
import { benchTracking, medianPairs, type TrackingBench } from './tracking';

/**
 * `pnpm bench`: click, lead and sale against the bare Fastify baseline on the SQLite file store and on
 * PostgreSQL, then dashboard and readiness latency at 10k and 1M events; writes BENCHMARKS.md at the root.
 * BENCH_SECONDS (default 10), BENCH_CONNECTIONS (50), BENCH_EVENTS (1000000), BENCH_STORES (sqlite,postgres),
 * BENCH_ONLY (tracking or scale), BENCH_REPEATS (3: the tracking pairs are measured that many times, the median shown).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const events = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const stores = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');
const postgres =
  process.env.BENCH_DATABASE_URL ??
  (process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/test');
/** `tracking` or `scale` runs one half only (the report then holds that half). */
const only = process.env.BENCH_ONLY;

const tracking: TrackingBench[] = [];
const scale: EventScaleBench[] = [];
for (const store of stores) {
  // A fresh SQLite file or PostgreSQL schema per store, removed afterwards; named per store, not by DATABASE_URL
  // (with DATABASE_URL naming PostgreSQL, the "sqlite" rows once measured PostgreSQL).
  const storeUrl = store === 'postgres' ? postgres : undefined;
  if (only !== 'scale') {
    const runs: TrackingBench[] = [];
    for (let repeat = 1; repeat <= repeats; repeat++) {
      const db = privateDatabase(`bench_${store}`, storeUrl);
      try {
        console.log(`\n== ${store}: tracking routes, ${connections} connections, ${seconds} s each (repeat ${repeat} of ${repeats})`);
        const result = await benchTracking(store, db.url, { seconds, connections });
        for (const pair of result.pairs) {
          console.log(
            `${pair.route.padEnd(6)} ${pair.server.rps.toFixed(0).padStart(6)} req/s (bare ${pair.bare.rps.toFixed(0)}, ratio ${(pair.server.rps / pair.bare.rps).toFixed(2)})` +
              `  p50 ${pair.server.p50} ms  p99 ${pair.server.p99} ms  CPU ${pair.server.cpuUsPerRequest.toFixed(0)} µs/req` +
              `  peak RSS ${pair.server.peakRssMb.toFixed(0)} MB  non-2xx ${pair.server.non2xx}`,
          );
        }
        runs.push(result);
      } finally {
        await db.dispose();
      }
    }
    tracking.push(medianPairs(store, runs));
  }
  if (only !== 'tracking') {
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

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform} ${process.arch}`;
await writeReport({ machine, seconds, connections, events, tracking, scale });
console.log('\nwrote BENCHMARKS.md');
