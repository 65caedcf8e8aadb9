import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { root } from '../src/workspace';

/** scripts/pack-lines.mjs, the lines `pnpm pack:all` prints. */
const { installs, npxLine } = (await import(pathToFileURL(join(root, 'scripts/pack-lines.mjs')).href)) as {
  installs: Record<'server', string[]>;
  npxLine: (tarball: (name: string) => string, args?: string) => string;
};
const manifest = (dir: string) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
const dirOf: Record<string, string> = { '@svc/reference-server': 'reference-server' };
const dir = (name: string) => dirOf[name] ?? `packages/${name.slice('@svc/'.length)}`;

describe('the npx line of pnpm pack:all', () => {
  it('names the tarball of the reference server and of every @svc package it depends on, then its one bin', () => {
    const line = npxLine((name) => `/abs/packs/${name.slice(1).replace('/', '-')}-1.0.0.tgz`);
    const server = manifest('reference-server');
    const svcDeps = Object.keys(server.dependencies).filter((name) => name.startsWith('@svc/'));
    // Each @svc dependency's own @svc dependencies too: none may come from the registry, where they are not yet.
    const needed = new Set<string>(['@svc/reference-server']);
    const visit = (name: string) => {
      if (needed.has(name) && name !== '@svc/reference-server') return;
      needed.add(name);
      for (const dep of Object.keys(manifest(dir(name)).dependencies ?? {})) if (dep.startsWith('@svc/')) visit(dep);
    };
    svcDeps.forEach(visit);
    expect(new Set(installs.server)).toEqual(needed);
    for (const name of needed) expect(line).toContain(`--package=/abs/packs/${name.slice(1).replace('/', '-')}-1.0.0.tgz`);
    expect(line).toMatch(/^npx --yes (--package=\S+ )+svc-reference-server --help$/);
  });

  it('runs the one bin the package publishes, so `npx @svc/reference-server` resolves to it', () => {
    const bins = Object.keys(manifest('reference-server').bin);
    expect(bins).toEqual(['svc-reference-server']);
  });
});
