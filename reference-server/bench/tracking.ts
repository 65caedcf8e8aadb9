import { randomBytes } from 'node:crypto';
import type { ServerProcess } from '../test/scale/server-process';
import type { RequestSpec } from 'autocannon';
import { load, type LoadResult } from './load';
import { spawnBare, spawnBenchServer } from './processes';

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
}

const json = { 'content-type': 'application/json' };

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
  const server = await spawnBenchServer(databaseUrl, options.nodeArgs);
  const bare = await spawnBare();
  try {
    const program = await server.control.createProgram({ commission_type: 'recurring_percent', commission_rate: 10 });
    const partner = await server.control.createPartner({ program_id: program.id });
    const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
    const auth = { ...json, authorization: `Bearer ${program.api_token}` };
    const clickBody = JSON.stringify({ affiliate_url: `https://shop.example.com/landing?aff=${link.short_link}&utm_source=bench` });
    const run = (name: string, target: { url: string; pid: number }, request: Parameters<typeof load>[0]['request']) =>
      load({ name, url: target.url, pid: target.pid, seconds: options.seconds, connections: options.connections, request });
    const serverTarget = { url: server.url, pid: server.child.pid! };

    // Warm both processes up (JIT, connection pools, SQLite page cache) before anything is measured.
    await load({
      name: 'warm-up',
      url: server.url,
      pid: server.child.pid!,
      seconds: 2,
      connections: options.connections,
      request: { method: 'POST', path: '/api/v1/track/click', headers: json, body: clickBody },
    });
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
    await stopServer(server);
  }
}

async function stopServer(server: ServerProcess): Promise<void> {
  const code = await server.stop('SIGTERM');
  if (code !== 0) console.warn(`server exited with ${code}:\n${server.output().slice(-2000)}`);
}
