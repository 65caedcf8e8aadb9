import { randomBytes } from 'node:crypto';
import { privateDatabase } from '../test/scale/databases';
import { openLoop, type OpenLoopRequest, type OpenLoopResult } from './open-loop';
import { benchPostgresUrl, benchProgram, json, spawnBare, spawnBenchServer } from './processes';

/**
 * `pnpm --filter @svc/reference-server bench:fixed-rate` (after `pnpm build`): latency at steady request rates, what a shop's visitors meet, where `pnpm bench` floods
 * the server with 50 requests always waiting (there a request's time is mostly its wait in line: 50 over the
 * throughput). Each route and rate runs against the server and then the bare Fastify route (bench/bare-server.ts),
 * so the server's own share is the difference. FIXED_RATES (500,1000,2000 a second), FIXED_SECONDS (8),
 * BENCH_STORES (sqlite,postgres). Prints its table; BENCHMARKS.md is `pnpm bench`'s.
 */
const rates = (process.env.FIXED_RATES ?? '500,1000,2000').split(',').map(Number);
const seconds = Number(process.env.FIXED_SECONDS ?? 8);
const stores = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');

const cell = (r: OpenLoopResult) => `${r.p50} / ${r.p90} / ${r.p99}${r.non2xx > 0 ? ` (${r.non2xx} non-2xx)` : ''}`;

console.log('| Store | Route | rate / s | server p50 / p90 / p99 ms | bare p50 / p90 / p99 ms |');
console.log('|---|---|---:|---|---|');
for (const store of stores) {
  const db = privateDatabase(`bench_fixed_${store}`, store === 'postgres' ? benchPostgresUrl : '');
  const server = await spawnBenchServer(db.url);
  const bare = await spawnBare();
  try {
    const { auth, clickBody } = await benchProgram(server);
    const tag = randomBytes(3).toString('hex');
    // Each rate's leads take that rate's fresh clicks, and its sales those leads' customers (a commission each),
    // as in `pnpm bench`.
    const row = async (route: string, rate: number, request: OpenLoopRequest) => {
      const measured = await openLoop(server.url, rate, seconds, request);
      const baseline = await openLoop(bare.url, rate, seconds, { ...request, path: '/bare', onResponse: undefined });
      console.log(`| ${store} | ${route} | ${rate} | ${cell(measured)} | ${cell(baseline)} |`);
    };
    await openLoop(server.url, 1000, 2, { path: '/api/v1/track/click', headers: json, body: () => clickBody });
    for (const rate of rates) {
      const clicks: string[] = [];
      await row('click', rate, {
        path: '/api/v1/track/click',
        headers: json,
        body: () => clickBody,
        onResponse: (status, body) => void (status === 200 && clicks.push((JSON.parse(body) as { click_id: string }).click_id)),
      });
      const key = (n: number) => `fixed-${tag}-${rate}-${n}`;
      await row('lead', rate, {
        path: '/api/v1/track/lead',
        headers: auth,
        body: (n) => JSON.stringify({ customer_key: key(n), email: `c${n}@example.com`, ...(clicks[n] ? { click_id: clicks[n] } : {}) }),
      });
      await row('sale', rate, {
        path: '/api/v1/track/sale',
        headers: auth,
        body: (n) =>
          JSON.stringify({
            transaction_id: `fixed_${tag}_${rate}_${n}`,
            amount_cents: 1999,
            currency: 'USD',
            customer_key: key(n % Math.max(1, clicks.length)),
            provider: 'stripe',
            provider_payment_id: `pi_${tag}_${rate}_${n}`,
          }),
      });
    }
  } finally {
    await bare.stop();
    await server.stop('SIGTERM');
    await db.dispose();
  }
}
