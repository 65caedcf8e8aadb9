#!/usr/bin/env node
// `pnpm pack:all`: every published @svc package packed into ./packs with matching versions, and the npm install
// lines that use them — the way to install svc from a clone until the packages are on the npm registry. A fresh
// build is reused (only stale packages are built, as `pnpm start` decides).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installLine, installs, npxLine } from './pack-lines.mjs';
import { buildStale } from './stale-builds.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
buildStale(root);
const out = join(root, 'packs');
const dirs = [...readdirSync(join(root, 'packages')).map((d) => join('packages', d)), 'reference-server'];
const published = dirs
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true);

rmSync(out, { recursive: true, force: true });
mkdirSync(out);
// pnpm pack rewrites every `workspace:` range to the version it points at, so the tarballs agree with each other.
for (const { dir } of published) execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: join(root, dir), stdio: 'ignore' });

const tarball = (name) => {
  const file = readdirSync(out).find((f) => f.startsWith(`${name.slice(1).replace('/', '-')}-`) && f.endsWith('.tgz'));
  if (!file) throw new Error(`no tarball for ${name}`);
  return join(out, file);
};

console.log(`Packed ${published.length} packages into ${relative(process.cwd(), out) || '.'}:`);
for (const { manifest } of published) console.log(`  ${manifest.name}@${manifest.version}`);
console.log(`
In your project (each line installs the @svc packages it needs together, so their versions match):

  # a backend that reports leads and sales
  ${installLine(tarball, installs.backend)}

  # the browser SDK (the script tag needs no install: the server serves svc-tracker.js)
  ${installLine(tarball, installs.browser)}

  # the contract-testing kit and the svc CLI, for your tests and your terminal
  ${installLine(tarball, installs.kit, true)}

The reference server from any folder, nothing installed (a backend not written in JavaScript):

  ${npxLine(tarball)}
`);
