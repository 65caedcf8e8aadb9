// Which workspace packages `pnpm start` (scripts/start.mjs) must build before the demo runs: those whose dist is
// missing or older than one of their inputs. Tested in examples/release-check/test/start-script.test.ts.
import { existsSync, readdirSync, statSync } from 'node:fs';
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
