#!/usr/bin/env node
// `pnpm release:dry-run`: what the release workflow would publish. Packs every published package as pnpm publishes
// it (`workspace:` ranges rewritten), then runs `npm publish --dry-run` on each tarball: npm's own checks of the
// manifest and the file list, nothing sent.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dirs = [...readdirSync(join(root, 'packages')).map((d) => join('packages', d)), 'reference-server'];
const published = dirs.filter((dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).private !== true);
const out = mkdtempSync(join(tmpdir(), 'svc-release-'));
try {
  for (const dir of published) {
    const before = new Set(readdirSync(out));
    execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: join(root, dir), stdio: 'ignore' });
    const tarball = readdirSync(out).find((file) => !before.has(file));
    if (!tarball) throw new Error(`pnpm pack wrote nothing for ${dir}`);
    console.log(`\n== ${dir}: npm publish --dry-run ${tarball}`);
    execFileSync('npm', ['publish', '--dry-run', '--access', 'public', join(out, tarball)], { stdio: 'inherit' });
  }
  console.log(`\n${published.length} packages would be published.`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
