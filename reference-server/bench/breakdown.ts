import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDatabase } from '../test/scale/databases';
import { load } from './load';
import { benchPostgresUrl, benchProgram, json, spawnBenchServer } from './processes';

/**
 * `node --import tsx bench/breakdown.ts [sqlite|postgres]`: the per-request CPU breakdown of click, lead and sale
 * (docs/performance-notes.md, "Where a tracking request's time goes"). Each route is loaded (50 connections, BENCH_SECONDS,
 * default 5) against the built server running under `node --cpu-prof`, one server process per route on a database
 * the earlier routes filled (fresh clicks for the leads, attributed customers for the sales), and the samples are
 * grouped by what they were doing: parse, auth, lookups and SQL, logging, serialisation, sockets, GC, idle.
 */
const store = process.argv[2] ?? 'sqlite';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dir = process.env.PROFILE_DIR ?? '/tmp/svc-profile';
mkdirSync(dir, { recursive: true });
const db = privateDatabase(`breakdown_${store}`, store === 'postgres' ? benchPostgresUrl : undefined);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount: number;
  children?: number[];
}

function category(frames: Node['callFrame'][]): string {
  const leaf = frames[0]!;
  if (leaf.functionName === '(garbage collector)') return 'GC';
  if (leaf.functionName === '(idle)') return 'idle (waiting)';
  if (leaf.functionName === '(program)') return 'runtime (program)';
  const has = (re: RegExp) => frames.some((f) => re.test(f.url) || re.test(f.functionName));
  const at = frames.find((f) => f.url !== '')?.url ?? '';
  if (/pino|sonic-boom|fast-redact/.test(at) || has(/registerRequestLog|pino|sonic-boom/)) return 'logging';
  if (/better-sqlite3|dialect\/sqlite|pg-protocol|[/]pg[/@]|pg-pool/.test(at)) return 'SQL (driver + database)';
  if (/kysely/.test(at)) return 'query building (Kysely)';
  if (/fast-json-stringify|serializ/i.test(at) || has(/^(serialize|serializeReply|stringify)$/)) return 'serialisation';
  if (/secure-json-parse|content-type-parser|contentTypeParser|body-parsers/.test(at) || has(/^(defaultJsonParser|parse|rawBody)$/))
    return 'parse';
  if (has(/hashKey|programOfKey|createHash|timingSafeEqual/)) return 'auth (key hash)';
  if (
    /node:net|node:_http|node:internal\/(stream|streams|net|http)|node:stream|llhttp/.test(at) ||
    has(/^(writev|writeGeneric|onStreamRead|parserOnHeadersComplete|parserOnBody)$/)
  )
    return 'HTTP and sockets';
  if (/fastify|find-my-way|avvio|light-my-request|@fastify/.test(at)) return 'Fastify (routing, hooks, reply)';
  if (/reference-server\/dist/.test(at)) return 'app (routes, domain, store code)';
  if (/^node:/.test(at)) return 'other Node internals (timers, async hooks, buffers, modules)';
  return 'other';
}

async function profiled(run: (server: Awaited<ReturnType<typeof spawnBenchServer>>) => Promise<void>) {
  const before = new Set(readdirSync(dir));
  const server = await spawnBenchServer(db.url, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  try {
    await run(server);
  } finally {
    await server.stop('SIGTERM');
  }
  const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[]; samples: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map<string, number>();
  let all = 0;
  for (const n of profile.nodes) {
    if (!n.hitCount) continue;
    const frames: Node['callFrame'][] = [];
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) frames.push(byId.get(id)!.callFrame);
    const c = category(frames);
    totals.set(c, (totals.get(c) ?? 0) + n.hitCount);
    all += n.hitCount;
  }
  return { file: join(dir, file), totals, all };
}

let program: Awaited<ReturnType<typeof benchProgram>> | undefined;
const clickIds: string[] = [];
const customers: string[] = [];
const report: string[] = [];
const routes = ['click', 'lead', 'sale'] as const;
for (const route of routes) {
  let rps = 0;
  let n = 0;
  const result = await profiled(async (server) => {
    program ??= await benchProgram(server);
    const { auth, clickBody } = program;
    const requests = {
      click: {
        method: 'POST' as const,
        path: '/api/v1/track/click',
        headers: json,
        body: clickBody,
        onResponse: (status: number, body: string) => {
          if (status === 200 && clickIds.length < 200_000) clickIds.push((JSON.parse(body) as { click_id: string }).click_id);
        },
      },
      lead: {
        method: 'POST' as const,
        path: '/api/v1/track/lead',
        headers: auth,
        setupRequest: (r: object, context: Record<string, unknown>) => {
          const i = n++;
          context.key = `bd-${i}`;
          return {
            ...r,
            body: JSON.stringify({ customer_key: `bd-${i}`, email: `c${i}@example.com`, click_id: clickIds[i % clickIds.length] }),
          };
        },
        onResponse: (status: number, _b: string, context: Record<string, unknown>) => {
          if (status === 200 && Number(String(context.key).slice(3)) < clickIds.length) customers.push(context.key as string);
        },
      },
      sale: {
        method: 'POST' as const,
        path: '/api/v1/track/sale',
        headers: auth,
        setupRequest: (r: object) => {
          const i = n++;
          return {
            ...r,
            body: JSON.stringify({
              transaction_id: `bd_${i}`,
              amount_cents: 1999,
              currency: 'USD',
              customer_key: customers[i % customers.length],
            }),
          };
        },
      },
    };
    const out = await load({ name: route, url: server.url, pid: server.child.pid!, seconds, connections: 50, request: requests[route] });
    rps = out.rps;
    console.log(`${route}: ${out.rps.toFixed(0)} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms, statuses ${JSON.stringify(out.statuses)}`);
  });
  const lines = [...result.totals].sort((a, b) => b[1] - a[1]);
  const busy = result.all - (result.totals.get('idle (waiting)') ?? 0);
  report.push(`\n${store} ${route} (${rps.toFixed(0)} req/s; ${result.file})`);
  for (const [c, hits] of lines)
    report.push(
      `${((hits / result.all) * 100).toFixed(1).padStart(5)} %  ${c}${c.startsWith('idle') ? '' : `  (${((hits / busy) * 100).toFixed(1)} % of busy)`}`,
    );
}
await db.dispose();
console.log(report.join('\n'));
