import { randomBytes } from 'node:crypto';
import type { ServerProcess } from '../test/scale/server-process';
import type { RequestSpec } from 'autocannon';
import { load, type LoadResult } from './load';
import { benchProgram, json, spawnBare, spawnBenchServer, type BenchServer } from './processes';

export interface TrackingPair {
  route: 'click' | 'lead' | 'sale';
  server: LoadResult;
  bare: LoadResult;
  /** Server over bare throughput of every repeat, lowest first (the pair shown is the median one). */
  ratios?: number[];
}

export interface TrackingBench {
  store: string;
  pairs: TrackingPair[];
}

/**
 * The median repeat of each route, by ratio. The two cores are shared with the load generator and with whatever
 * else the machine runs, so one run can be off by 3× (seen here); the median of several repeats is stabler.
 */
export function medianPairs(store: string, runs: TrackingBench[]): TrackingBench {
  const routes = runs[0]?.pairs.map((pair) => pair.route) ?? [];
  const pairs = routes.map((route) => {
    const repeats = runs.map((run) => run.pairs.find((pair) => pair.route === route)!);
    const sorted = [...repeats].sort((a, b) => a.server.rps / a.bare.rps - b.server.rps / b.bare.rps);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    return { ...median, ratios: sorted.map((pair) => pair.server.rps / pair.bare.rps) };
  });
  return { store, pairs };
}

export interface TrackingBenchOptions {
  seconds: number;
  connections: number;
  nodeArgs?: string[];
  /**
   * Server processes sharing the database (PostgreSQL only), 1 by default: every run splits its connections evenly
   * between them, as a load balancer would, and adds up what they did.
   */
  servers?: number;
}

type Target = { url: string; pid: number; memoryFile?: string };

/**
 * One run split over `targets` at once, `connections` shared evenly: requests and non-2xx summed, the worst p50 and
 * p99, the largest process's memory, CPU per request over all of them. The request spec is shared, so a
 * `setupRequest` numbering bodies numbers them across the targets (fresh transaction ids stay unique).
 */
async function loadSplit(
  name: string,
  targets: Target[],
  options: { seconds: number; connections: number },
  request: Parameters<typeof load>[0]['request'],
): Promise<LoadResult> {
  const each = Math.max(1, Math.floor(options.connections / targets.length));
  const results = await Promise.all(
    targets.map((target) =>
      load({ name, url: target.url, pid: target.pid, seconds: options.seconds, connections: each, request, memoryFile: target.memoryFile }),
    ),
  );
  if (results.length === 1) return results[0]!;
  const rps = results.reduce((sum, r) => sum + r.rps, 0);
  return {
    name,
    rps,
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    peakRssMb: Math.max(...results.map((r) => r.peakRssMb)),
    cpuUsPerRequest: rps > 0 ? results.reduce((sum, r) => sum + r.cpuUsPerRequest * r.rps, 0) / rps : 0,
    // The same window on the same machine, read by each run: their mean.
    hostBusyPct: results.reduce((sum, r) => sum + r.hostBusyPct, 0) / results.length,
    statuses: {},
    peakHeap: results.map((r) => r.peakHeap).reduce((a, b) => (a && b && a.totalMb >= b.totalMb ? a : (b ?? a))),
  };
}

/**
 * autocannon's `setupRequest` sending `body(n)` as the n-th request's body, n counting from 0 in each run. The bare
 * route's lead and sale runs take their bodies from the same `body` as the server's: the load generator shares the
 * cores, so both runs must cost it the same (a constant body would make the bare route look faster than it is).
 */
function freshBody(body: (n: number, context: Record<string, unknown>) => string): NonNullable<RequestSpec['setupRequest']> {
  let n = 0;
  return (request, context) => ({ ...request, body: body(n++, context) });
}

/**
 * Click, lead and sale throughput and latency on one store, each next to the bare route with a body of the
 * same shape, in the same run. Every measured request is a real success path: clicks on a live link, leads on
 * fresh clicks (server mode), sales with fresh transaction ids for attributed customers (commission each).
 */
export async function benchTracking(store: string, databaseUrl: string, options: TrackingBenchOptions): Promise<TrackingBench> {
  // One after the other: the first migrates the schema, the next find it ready.
  const servers: BenchServer[] = [];
  for (let i = 0; i < (options.servers ?? 1); i++) servers.push(await spawnBenchServer(databaseUrl, options.nodeArgs));
  const server = servers[0]!;
  const bare = await spawnBare();
  try {
    const { auth, clickBody } = await benchProgram(server);
    const run = (name: string, target: Target | Target[], request: Parameters<typeof load>[0]['request']) =>
      loadSplit(name, [target].flat(), options, request);
    const serverTarget = servers.map((s) => ({ url: s.url, pid: s.child.pid!, memoryFile: s.memoryFile }));

    // Warm every process up (JIT, connection pools, SQLite page cache) before anything is measured.
    await loadSplit(
      'warm-up',
      serverTarget,
      { seconds: 2, connections: options.connections },
      {
        method: 'POST',
        path: '/api/v1/track/click',
        headers: json,
        body: clickBody,
      },
    );
    await load({
      name: 'warm-up',
      url: bare.url,
      pid: bare.pid,
      seconds: 2,
      connections: options.connections,
      request: { method: 'POST', path: '/bare', headers: json, body: clickBody },
    });

    const clickIds: string[] = [];
    const pairs: TrackingPair[] = [];
    const clickBare = await run('click (bare)', bare, { method: 'POST', path: '/bare', headers: json, body: clickBody });
    const click = await run('click', serverTarget, {
      method: 'POST',
      path: '/api/v1/track/click',
      headers: json,
      body: clickBody,
      onResponse: (status, body) => {
        if (status === 200 && clickIds.length < 500_000) clickIds.push((JSON.parse(body) as { click_id: string }).click_id);
      },
    });
    pairs.push({ route: 'click', server: click, bare: clickBare });

    const tag = randomBytes(3).toString('hex');
    const customers: string[] = [];
    const leadBody = (n: number, context: Record<string, unknown>) => {
      const key = `bench-${tag}-${n}`;
      context.customer = key;
      const clickId = clickIds[n];
      // Beyond the pool of fresh clicks a lead is still valid (the cleared-cookie rule), just unattributed.
      return JSON.stringify({ customer_key: key, email: `c${n}@example.com`, ...(clickId ? { click_id: clickId } : {}) });
    };
    const leadBare = await run('lead (bare)', bare, { method: 'POST', path: '/bare', headers: auth, setupRequest: freshBody(leadBody) });
    const lead = await run('lead', serverTarget, {
      method: 'POST',
      path: '/api/v1/track/lead',
      headers: auth,
      setupRequest: freshBody(leadBody),
      onResponse: (status, _body, context) => {
        const key = context.customer as string;
        if (status === 200 && Number(key.split('-').pop()) < clickIds.length) customers.push(key);
      },
    });
    pairs.push({ route: 'lead', server: lead, bare: leadBare });

    const saleBody = (n: number) =>
      JSON.stringify({
        transaction_id: `bench_${tag}_${n}`,
        amount_cents: 1999 + (n % 100),
        currency: 'USD',
        customer_key: customers[n % Math.max(1, customers.length)] ?? `bench-${tag}-0`,
        provider: 'stripe',
        provider_payment_id: `pi_${tag}_${n}`,
      });
    const saleBare = await run('sale (bare)', bare, { method: 'POST', path: '/bare', headers: auth, setupRequest: freshBody(saleBody) });
    const sale = await run('sale', serverTarget, {
      method: 'POST',
      path: '/api/v1/track/sale',
      headers: auth,
      setupRequest: freshBody(saleBody),
    });
    pairs.push({ route: 'sale', server: sale, bare: saleBare });
    return { store, pairs };
  } finally {
    await bare.stop();
    for (const s of servers) await stopServer(s);
  }
}

async function stopServer(server: ServerProcess): Promise<void> {
  const code = await server.stop('SIGTERM');
  if (code !== 0) console.warn(`server exited with ${code}:\n${server.output().slice(-2000)}`);
}
