import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Builds dist/bin.js with the package's own tsup config, so the spawned binary is the code under test. */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(join(root, 'node_modules', '.bin', 'tsup'), { cwd: root, stdio: 'pipe' });
}
