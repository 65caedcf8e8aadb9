// Which workspace packages `pnpm start` (scripts/start.mjs) and `pnpm pack:all` (scripts/pack.mjs) must build
// first: those whose dist is missing or older than one of their inputs. Tested in
// examples/release-check/test/start-script.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';

/** The packages the demo needs, in dependency order, with what their build reads (relative to each package). */
export const builds = [
  { dir: 'packages/types', inputs: ['src', 'scripts', 'package.json', 'tsup.config.ts', '../../spec/openapi.yaml'] },
  { dir: 'packages/browser', inputs: ['src', 'package.json', 'tsup.config.ts'] },
  { dir: 'packages/tracker', inputs: ['src', 'package.json', 'rollup.config.mjs'] },
  { dir: 'packages/server', inputs: ['src', 'package.json', 'tsup.config.ts'] },
  { dir: 'packages/cli', inputs: ['src', 'package.json', 'tsup.config.ts'] },
  { dir: 'reference-server', inputs: ['src', 'scripts', 'package.json', 'tsup.config.ts'] },
];

/** Inputs of every build (relative to the workspace root). */
export const sharedInputs = ['tsconfig.base.json', 'tsup.base.ts', 'pnpm-lock.yaml'];

/** Newest (or oldest) modification time of the files under a path; undefined when it does not exist. */
function mtime(path, pick) {
  if (!existsSync(path)) return undefined;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const times = readdirSync(path)
    .map((entry) => mtime(join(path, entry), pick))
    .filter((t) => t !== undefined);
  return times.length === 0 ? undefined : pick(...times);
}

/** The builds whose oldest dist file is older than their newest input (or that have no dist at all). */
export function staleBuilds(root, list = builds, shared = sharedInputs) {
  const sharedTime = Math.max(0, ...shared.map((file) => mtime(join(root, file), Math.max) ?? 0));
  return list.filter(({ dir, inputs }) => {
    const output = mtime(join(root, dir, 'dist'), Math.min);
    if (output === undefined) return true;
    const input = Math.max(sharedTime, ...inputs.map((i) => mtime(join(root, dir, i), Math.max) ?? 0));
    return input > output;
  });
}

/** Seconds since `start` (a `performance.now()` reading), as the steps print them: `41 s`, or `0.4 s` under ten. */
export function seconds(start) {
  const s = (performance.now() - start) / 1000;
  return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
}

/**
 * Builds the stale packages (and what depends on them) in dependency order, quietly: the output is shown only when
 * a build fails, and then the process exits with its code. Shared by `pnpm start` and `pnpm pack:all`, so a fresh
 * build is reused by both. Prints one line with the time it took.
 */
export function buildStale(root, { list = builds, say = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const stale = staleBuilds(root, list);
  if (stale.length === 0) return;
  const names = stale.map(({ dir }) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).name);
  say(`Building ${names.join(', ')} (and what depends on them)…`);
  const start = performance.now();
  // `name...` selects the package and its dependents, built in dependency order.
  const filters = names.flatMap((name) => ['--filter', `${name}...`]);
  const result = spawnSync('pnpm', ['-r', ...filters, '--filter', '!./examples/**', 'run', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    process.exit(result.status ?? 1);
  }
  say(`✓ built in ${seconds(start)}`);
}
