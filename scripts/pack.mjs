#!/usr/bin/env node
// `pnpm pack:all`: every published @svc package packed into ./packs with matching versions, and the npm install
// lines that use them — the way to install svc from a clone until the packages are on the npm registry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
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
const line = (names, dev = false) => `npm install ${dev ? '--save-dev ' : ''}${names.map(tarball).join(' ')}`;

console.log(`Packed ${published.length} packages into ${relative(process.cwd(), out) || '.'}:`);
for (const { manifest } of published) console.log(`  ${manifest.name}@${manifest.version}`);
console.log(`
In your project (each line installs the @svc packages it needs together, so their versions match):

  # a backend that reports leads and sales
  ${line(['@svc/types', '@svc/server'])}

  # the browser SDK (the script tag needs no install: the server serves svc-tracker.js)
  ${line(['@svc/types', '@svc/browser'])}

  # the contract-testing kit and the svc CLI, for your tests and your terminal
  ${line(['@svc/types', '@svc/server', '@svc/browser', '@svc/tracker', '@svc/reference-server', '@svc/cli'], true)}
`);
