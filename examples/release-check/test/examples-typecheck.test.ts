import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run';
import { root } from '../src/workspace';

// `pnpm lint` type-checks the published packages only; customers copy the examples, so they must compile too.
const examples = readdirSync(join(root, 'examples')).filter((name) => existsSync(join(root, 'examples', name, 'tsconfig.json')));
const tsc = createRequire(join(root, 'examples/release-check/package.json')).resolve('typescript/bin/tsc');

describe('examples', () => {
  it.each(examples)(
    '%s type-checks against the built packages',
    async (name) => {
      await expect(run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: join(root, 'examples', name) })).resolves.toBe('');
    },
    120_000,
  );
});
