import { writeFileSync } from 'node:fs';
import type { EventScaleBench } from './events-scale';
import type { StartUpBench } from './start-up';
import type { TrackingBench, TrackingPair } from './tracking';

export interface Report {
  machine: string;
  seconds: number;
  connections: number;
  events: number;
  repeats: number;
  tracking: TrackingBench[];
  scale: EventScaleBench[];
  startUp: StartUpBench | undefined;
}

/** The targets on the 2-core machine: ratios to the bare route at 50 connections, p99, peak RSS of every flood. */
export const storeTargets = {
  sqlite: { click: 0.45, lead: 0.35, sale: 0.35 },
  postgres: { click: 0.25, lead: 0.15, sale: 0.18 },
} as const;
export const p99TargetMs = 10;
export const rssTargetMb = 160;
/** `startReferenceServer()` on SQLite in memory: from the call to its first answer, median of the runs. */
export const startUpTargetMs = 200;

const root = new URL('../../', import.meta.url);
const mark = (ok: boolean) => (ok ? '✅' : '❌');
/** "postgres ×2" (two servers) is held to PostgreSQL's targets, and to one server's throughput. */
const targetsOf = (store: string) => storeTargets[store.startsWith('postgres') ? 'postgres' : 'sqlite'];
const heap = (pair: TrackingPair) =>
  pair.server.peakHeap ? `${pair.server.peakHeap.usedMb.toFixed(0)} / ${pair.server.peakHeap.totalMb.toFixed(0)}` : '—';

/**
 * Writes BENCHMARKS.md at the repository root, short: the results next to their targets, then the method. The
 * history of how the numbers came about is docs/performance-notes.md, written by hand.
 */
export function writeReport(report: Report): void {
  const lines: string[] = [
    '# Benchmarks',
    '',
    `Written by \`pnpm bench\` (reference-server/bench/run.ts) on ${new Date().toISOString().slice(0, 10)}: ${report.machine}.`,
    'The method is below the results; how the numbers came about, and what was tried, is in',
    '[docs/performance-notes.md](docs/performance-notes.md).',
    '',
    '## Tracking routes',
    '',
    `Ratio: the server's req/s over a bare Fastify route's, in the same run; the row is the median of ${report.repeats} repeats`,
    `("ratios seen" lists them all). Targets: the ratio shown, p99 ≤ ${p99TargetMs} ms, peak RSS ≤ ${rssTargetMb} MB. "postgres ×2" is two`,
    'server processes on one PostgreSQL database taking the same load between them. In brackets after the p99: the bare',
    "route's own p99 in the same repeat, what the machine's cores allowed at that hour.",
    '',
    '| Store | Route | ratio | target | ratios seen | req/s | bare req/s | p50 ms | p99 ms (bare) | peak RSS MB | heap used / total MB | CPU µs/req | non-2xx |',
    '|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const t of report.tracking) {
    const targets = targetsOf(t.store);
    for (const pair of t.pairs) {
      const ratio = pair.server.rps / pair.bare.rps;
      const target = targets[pair.route];
      lines.push(
        `| ${t.store} | ${pair.route} | ${ratio.toFixed(2)} | ≥ ${target} ${mark(ratio >= target)} | ` +
          `${(pair.ratios ?? [ratio]).map((r) => r.toFixed(2)).join(', ')} | ${pair.server.rps.toFixed(0)} | ${pair.bare.rps.toFixed(0)} | ` +
          `${pair.server.p50} | ${pair.server.p99} ${mark(pair.server.p99 <= p99TargetMs)} (${pair.bare.p99}) | ` +
          `${pair.server.peakRssMb.toFixed(0)} ${mark(pair.server.peakRssMb <= rssTargetMb)} | ${heap(pair)} | ` +
          `${pair.server.cpuUsPerRequest.toFixed(0)} | ${pair.server.non2xx} |`,
      );
    }
  }
  const one = report.tracking.find((t) => t.store === 'postgres');
  const two = report.tracking.find((t) => t.store === 'postgres ×2');
  if (one && two) {
    lines.push(
      '',
      '## Two servers on one PostgreSQL database',
      '',
      'The same total load (the same connections, split evenly) through one server and through two. Target: two take at least',
      "one's load. Cores busy: the whole machine's CPU time in use during the run (servers, PostgreSQL, the load generator).",
      '',
      '| Route | one server req/s | two servers req/s | two ÷ one | cores busy, one server | cores busy, two servers |',
      '|---|---:|---:|---|---:|---:|',
    );
    for (const pair of two.pairs) {
      const single = one.pairs.find((p) => p.route === pair.route);
      if (!single) continue;
      const gain = pair.server.rps / single.server.rps;
      lines.push(
        `| ${pair.route} | ${single.server.rps.toFixed(0)} | ${pair.server.rps.toFixed(0)} | ${gain.toFixed(2)} ${mark(gain >= 1)} | ` +
          `${single.server.hostBusyPct.toFixed(0)} % | ${pair.server.hostBusyPct.toFixed(0)} % |`,
      );
    }
  }
  if (report.startUp) {
    const s = report.startUp;
    lines.push(
      '',
      '## Start-up',
      '',
      `\`startReferenceServer()\` on SQLite in memory, each start in a fresh process; medians of ${s.runs}.`,
      '',
      '| Measure | ms | target |',
      '|---|---:|---|',
      `| the call to its first answer (\`GET /healthz\`) | ${s.callToAnswerMs.toFixed(0)} | ≤ ${startUpTargetMs} ${mark(s.callToAnswerMs <= startUpTargetMs)} |`,
      `| importing \`@svc/reference-server\` | ${s.importMs.toFixed(0)} | — |`,
      `| the whole process, spawned to exited | ${s.processMs.toFixed(0)} | — |`,
      '',
      `Every run's call to first answer, ms: ${s.callToAnswerSeen.map((v) => v.toFixed(0)).join(', ')}.`,
    );
  }
  if (report.scale.length > 0) {
    lines.push(
      '',
      `## Dashboard and readiness at ${report.scale[0]!.smallEvents.toLocaleString('en')} and ${report.events.toLocaleString('en')} events`,
      '',
      '"Growth" is p50 at the large count over p50 at the small one: the routes must stay flat.',
      '',
      '| Store | Route | p50 ms (small) | p99 ms (small) | p50 ms (large) | p99 ms (large) | req/s (small → large) | growth |',
      '|---|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const s of report.scale) {
      for (const row of s.rows) {
        const growth = row.large.p50 / Math.max(row.small.p50, 1);
        lines.push(
          `| ${s.store} | \`${row.route}\` | ${row.small.p50} | ${row.small.p99} | ${row.large.p50} | ${row.large.p99} | ` +
            `${row.small.rps.toFixed(0)} → ${row.large.rps.toFixed(0)} | ${growth.toFixed(2)} × |`,
        );
      }
    }
  }
  lines.push(
    '',
    '## Method',
    '',
    `- Load: autocannon, ${report.connections} connections, ${report.seconds} s per route after a 2 s warm-up, on the same machine as the server.`,
    '- Server: the built `dist/server.js` in its own process, `SVC_RATE_LIMITS=off`, test control on (for set-up only), a fresh',
    '  database per repeat (a SQLite file; a PostgreSQL schema on the local server).',
    '- Baseline: a bare Fastify 5 route in its own process that parses the same JSON body (same 64 KiB limit) and answers a',
    '  constant. The lead and sale runs send both processes a fresh body per request from one generator, so the load',
    '  generator, which shares the cores, does the same work in both runs.',
    '- Every measured request is a success path: clicks on a live link; server-mode leads on fresh clicks; sales with fresh',
    '  transaction ids for attributed customers of a `recurring_percent` program (a commission on every sale).',
    "- Peak RSS: the server process's resident memory, read from `/proc` every 100 ms during the run. Heap: the largest",
    '  `process.memoryUsage()` the server sampled meanwhile (bench/memory-sampler.mjs, loaded with `--import`). CPU µs/req:',
    "  the server process's CPU time (user and system) per request, steadier from run to run than the rates.",
    '- Two servers: both on one schema, each given half the connections at the same time (no load balancer needed).',
    '- Start-up: bench/start-up-child.mjs, one process per start, timed inside the process; the first request goes out',
    "  through node:http (fetch's own first use, loading undici, is the client's start-up, not the server's).",
    '- Dashboard and readiness: events seeded in bulk straight into the store (90 days, 20 partners, 70 % clicks, 20 % leads,',
    '  10 % sales, 2 % test), the server restarted, each route loaded with 10 connections.',
    '- `BENCH_SECONDS`, `BENCH_CONNECTIONS`, `BENCH_REPEATS`, `BENCH_STORES`, `BENCH_EVENTS`, `BENCH_ONLY` and',
    '  `BENCH_START_UP_RUNS` change the above (reference-server/bench/run.ts).',
    '',
  );
  writeFileSync(new URL('BENCHMARKS.md', root), lines.join('\n'));
}
