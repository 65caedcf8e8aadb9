import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDatabase } from '../test/scale/databases';
import { load } from './load';
import { benchProgram, spawnBenchServer } from './processes';

/**
 * `node --import tsx bench/profile.ts [click|lead|sale]`: runs the built server under `node --cpu-prof`,
 * loads one route, and prints the functions with the most self time (the profile stays in PROFILE_DIR).
 */
const route = process.argv[2] ?? 'click';
const dir = process.env.PROFILE_DIR ?? '/tmp/svc-profile';
mkdirSync(dir, { recursive: true });
const db = privateDatabase('profile');
const server = await spawnBenchServer(db.url, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
const { auth, clickBody } = await benchProgram(server);
// The sales are of one customer attributed to the link (a commission each, as in `pnpm bench`): a click, then its lead.
const post = async (path: string, body: string) => (await fetch(`${server.url}${path}`, { method: 'POST', headers: auth, body })).json();
const { click_id } = (await post('/api/v1/track/click', clickBody)) as { click_id: string };
await post('/api/v1/track/lead', JSON.stringify({ customer_key: 'profiled', click_id }));
let n = 0;
const requests = {
  click: {
    method: 'POST',
    path: '/api/v1/track/click',
    headers: auth,
    body: clickBody,
  },
  lead: {
    method: 'POST',
    path: '/api/v1/track/lead',
    headers: auth,
    setupRequest: (r: object) => ({ ...r, body: JSON.stringify({ customer_key: `p-${n++}` }) }),
  },
  sale: {
    method: 'POST',
    path: '/api/v1/track/sale',
    headers: auth,
    setupRequest: (r: object) => ({
      ...r,
      body: JSON.stringify({ transaction_id: `p-${n++}`, amount_cents: 1000, currency: 'USD', customer_key: 'profiled' }),
    }),
  },
}[route]!;
const before = new Set(readdirSync(dir));
const result = await load({
  name: route,
  url: server.url,
  pid: server.child.pid!,
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  request: requests,
});
console.log(
  `${route}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, statuses ${JSON.stringify(result.statuses)}`,
);
await server.stop();
await db.dispose();

const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[] };
const self = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const where = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\/\.pnpm\/([^/]+)\/.*?([^/]+)$/, '$1 $2').replace(/^file:\/\/.*\/reference-server\//, '')}:${node.callFrame.lineNumber + 1}`;
  self.set(where, (self.get(where) ?? 0) + node.hitCount);
  total += node.hitCount;
}
console.log(`profile: ${join(dir, file)}`);
for (const [where, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${((hits / total) * 100).toFixed(1).padStart(5)} %  ${where}`);
