#!/usr/bin/env node
// `pnpm start`: builds only the packages whose sources changed since their last build (quietly: the output is
// shown only when a build fails), then runs the demo, which prints its own steps. A second start with nothing
// changed goes straight to it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStale } from './stale-builds.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
buildStale(root);

const demo = spawn(process.execPath, [join(root, 'reference-server', 'dist', 'demo.js'), ...process.argv.slice(2)], {
  cwd: join(root, 'reference-server'),
  stdio: 'inherit',
});
// Ctrl+C reaches the demo directly (same process group); wait for it to close its database, then end as it did:
// 0 after a clean close, so pnpm prints no "Command failed" (package.json runs this script with `exec`: a shell
// left between pnpm and this process would die of the SIGINT itself). A SIGTERM sent to this process alone is
// passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => demo.kill('SIGTERM'));
// Killed by the signal itself (before the demo could handle it): the user asked to stop, not a failure.
demo.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
