#!/usr/bin/env node
// `pnpm start`: builds only the packages whose sources changed since their last build (quietly: the output is
// shown only when a build fails), then runs the demo. A second start with nothing changed goes straight to it.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuilds } from './stale-builds.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stale = staleBuilds(root);

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
