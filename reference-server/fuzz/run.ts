import { runFuzz } from './property';
import { createFuzzTarget } from './target';

/**
 * `pnpm fuzz`: at least 10,000 cases over every route of the spec, on `DATABASE_URL` (SQLite in memory by
 * default). `FUZZ_SEED` and `FUZZ_PATH` replay a failure exactly; `FUZZ_RUNS` changes the count.
 */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const numRuns = Number(process.env.FUZZ_RUNS ?? 10_000);
const path = process.env.FUZZ_PATH;
const routes = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : undefined;
const databaseUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';

console.log(`fuzz: ${numRuns} cases, seed ${seed}${path ? `, path ${path}` : ''}, store ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`);
console.log(`replay with: FUZZ_SEED=${seed}${routes ? ` FUZZ_ROUTES='${routes.source}'` : ''} pnpm fuzz`);
const started = Date.now();
const target = await createFuzzTarget(databaseUrl);
let exitCode = 0;
try {
  const { statuses } = await runFuzz(target, { seed, numRuns, ...(path ? { path } : {}), ...(routes ? { routes } : {}) });
  const byRoute = Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b));
  for (const [outcome, count] of byRoute) console.log(`  ${String(count).padStart(6)}  ${outcome}`);
  console.log(
    `fuzz passed: ${numRuns} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, no 5xx, every response valid, nothing recorded on refusal`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await target.close();
}
process.exit(exitCode);
