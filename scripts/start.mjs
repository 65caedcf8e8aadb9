#!/usr/bin/env node
// `pnpm start`: builds only the packages whose sources changed since their last build (quietly: the output is
// shown only when a build fails), then runs the demo. A second start with nothing changed goes straight to it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const shared = ['tsconfig.base.json', 'tsup.base.ts', 'pnpm-lock.yaml'].map((f) => join(root, f));
const built = [
  { dir: 'packages/types', inputs: ['src', 'scripts', 'package.json', 'tsup.config.ts', '../../spec/openapi.yaml'] },
  { dir: 'packages/browser', inputs: ['src', 'package.json', 'tsup.config.ts'] },
  { dir: 'packages/tracker', inputs: ['src', 'package.json', 'rollup.config.mjs'] },
  { dir: 'packages/server', inputs: ['src', 'package.json', 'tsup.config.ts'] },
  { dir: 'packages/cli', inputs: ['src', 'package.json', 'tsup.config.ts'] },
  { dir: 'reference-server', inputs: ['src', 'package.json', 'tsup.config.ts'] },
];

/** Newest (or oldest) modification time of the files under a path; undefined when it does not exist. */
function mtime(path, pick) {
  if (!existsSync(path)) return undefined;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const times = readdirSync(path).map((entry) => mtime(join(path, entry), pick)).filter((t) => t !== undefined);
  return times.length === 0 ? undefined : pick(...times);
}

const stale = built.filter(({ dir, inputs }) => {
  const output = mtime(join(root, dir, 'dist'), Math.min);
  if (output === undefined) return true;
  const input = Math.max(...[...inputs.map((i) => join(root, dir, i)), ...shared].map((p) => mtime(p, Math.max) ?? 0));
  return input > output;
});

if (stale.length > 0) {
  const names = stale.map(({ dir }) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).name);
  process.stdout.write(`Building ${names.join(', ')} (and what depends on them)…\n`);
  // `name...` selects the package and its dependents, built in dependency order.
  const filters = names.flatMap((name) => ['--filter', `${name}...`]);
  const result = spawnSync('pnpm', ['-r', ...filters, '--filter', '!./examples/**', 'run', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exit(result.status ?? 1);
  }
}

const demo = spawn(process.execPath, [join(root, 'reference-server', 'dist', 'demo.js'), ...process.argv.slice(2)], {
  cwd: join(root, 'reference-server'),
  stdio: 'inherit',
});
// Ctrl+C reaches the demo directly (same process group); wait for it to close its database. A SIGTERM sent to this
// process alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => demo.kill('SIGTERM'));
demo.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
