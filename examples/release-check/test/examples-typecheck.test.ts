import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
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
      // tsconfig.base.json maps the workspace's packages to their source (so lint needs no build); a customer gets
      // the published types, so this check drops that mapping and resolves each package through its dist/.
      const dir = mkdtempSync(join(tmpdir(), `svc-typecheck-${name}-`));
      try {
        const config = join(dir, 'tsconfig.json');
        const example = join(root, 'examples', name);
        // Written outside the tree, so the type roots are named as they are seen from the example.
        const typeRoots = [join(example, 'node_modules/@types'), join(root, 'node_modules/@types')];
        writeFileSync(config, JSON.stringify({ extends: join(example, 'tsconfig.json'), compilerOptions: { paths: {}, typeRoots } }));
        await expect(run(process.execPath, [tsc, '-p', config], { cwd: example })).resolves.toBe('');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
