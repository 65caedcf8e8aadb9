import { Session } from 'node:inspector/promises';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `node --import tsx bench/sale-path.ts` (`pnpm bench:sale-path`): which files of `src/` one sale runs through
 * (ARCHITECTURE.md, "The store engine"). The app is built in-process from source on SQLite in memory with test
 * control, as test/harness.ts builds it; after a warm-up sale, one `POST /api/v1/track/sale` of a customer who
 * clicked and signed up runs under V8's precise coverage with call counts, and every file under `src/` (bar
 * `testing/`) with a function other than its module body that ran is listed, grouped by folder. The outbox
 * dispatcher is stopped before the measured sale, so its poll timer never falls inside it: the list is the same
 * on every run. Requests go through `app.inject` only, so the script runs on older commits too. It needs the
 * dashboard's built assets (`pnpm build`), which the app serves.
 */
const src = fileURLToPath(new URL('../src/', import.meta.url));
const session = new Session();
session.connect();
await session.post('Profiler.enable');
// Started before the server's modules load, so every function of theirs is counted from its first call.
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const { buildApp } = await import('../src/app');
const { openStore } = await import('../src/store/db');

const store = await openStore('sqlite::memory:');
const app = buildApp({ store, testControl: true });
await app.ready();

async function post(url: string, body: unknown, key?: string): Promise<Record<string, unknown>> {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
    payload: JSON.stringify(body),
  });
  if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

const program = await post('/_test/programs', { commission_type: 'recurring_percent', commission_rate: 10 });
const key = program.api_token as string;
const partner = await post('/_test/partners', { program_id: program.id, name: 'Ann' });
await post('/_test/links', { program_id: program.id, partner_id: partner.id, short_link: 'ann' });

/** A customer who clicked the link and signed up, ready to buy. */
async function customer(name: string): Promise<void> {
  const click = await post('/api/v1/track/click', { affiliate_url: 'https://shop.example.com/?aff=ann' });
  await post('/api/v1/track/lead', { click_id: click.click_id, customer_key: name }, key);
}
const sale = (name: string) => post('/api/v1/track/sale', { transaction_id: `ch_${name}`, amount_cents: 4900, customer_key: name }, key);

await customer('warm');
await sale('warm');
await customer('measured');
await app.svc.webhooks.dispatcher.stop();

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}
type Coverage = { result: { url: string; functions: FunctionCoverage[] }[] };
// Taking the coverage resets the counts: what the next take reports ran after this one.
await session.post('Profiler.takePreciseCoverage');
await sale('measured');
const { result } = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();
await app.close();
await store.close();

/** The functions of a script that ran, bar its module body (the function starting at the script's first character). */
const ran = (functions: FunctionCoverage[]) =>
  functions.filter((f) => f.ranges[0] !== undefined && f.ranges[0].startOffset > 0 && f.ranges[0].count > 0);
const files = result
  .filter((script) => script.url.startsWith('file:'))
  .map((script) => ({ file: relative(src, fileURLToPath(script.url)).split(sep).join('/'), functions: ran(script.functions) }))
  .filter(({ file, functions }) => !file.startsWith('..') && !file.startsWith('testing/') && functions.length > 0)
  .sort((a, b) => a.file.localeCompare(b.file));

const byFolder = new Map<string, typeof files>();
for (const entry of files) {
  const folder = entry.file.includes('/') ? entry.file.slice(0, entry.file.lastIndexOf('/')) : '.';
  byFolder.set(folder, [...(byFolder.get(folder) ?? []), entry]);
}
// `--functions` also names what ran in each file, with its call count (anonymous functions by their offset).
const withFunctions = process.argv.includes('--functions');
for (const [folder, entries] of byFolder) {
  const names = entries.map(({ file }) => file.slice(file.lastIndexOf('/') + 1));
  console.log(`${folder}/ (${entries.length}): ${names.join(', ')}`);
  if (!withFunctions) continue;
  for (const { file, functions } of entries) {
    const calls = functions.map((f) => `${f.functionName || `@${f.ranges[0]!.startOffset}`} ×${f.ranges[0]!.count}`);
    console.log(`  ${file}: ${calls.join(', ')}`);
  }
}
console.log(`${files.length} files`);
