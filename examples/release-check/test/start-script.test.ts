import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { root } from '../src/workspace';

interface Build {
  dir: string;
  inputs: string[];
}
/** scripts/stale-builds.mjs, the part of `pnpm start` that decides what to build before the demo runs. */
const { builds, staleBuilds } = (await import(pathToFileURL(join(root, 'scripts/stale-builds.mjs')).href)) as {
  builds: Build[];
  staleBuilds: (root: string, list?: Build[], shared?: string[]) => Build[];
};

/** A file at `path` under `dir`, last modified `minutes` after an arbitrary start. */
function file(dir: string, path: string, minutes: number): void {
  const full = join(dir, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, '');
  const time = new Date(Date.UTC(2026, 0, 1) + minutes * 60_000);
  utimesSync(full, time, time);
}

describe('pnpm start builds only what changed', () => {
  const list: Build[] = [
    { dir: 'packages/a', inputs: ['src', 'package.json'] },
    { dir: 'packages/b', inputs: ['src', 'package.json'] },
  ];
  const workspace = () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-start-'));
    file(dir, 'tsconfig.base.json', 0);
    for (const name of ['a', 'b']) {
      file(dir, `packages/${name}/package.json`, 1);
      file(dir, `packages/${name}/src/index.ts`, 2);
      file(dir, `packages/${name}/dist/index.js`, 10);
      file(dir, `packages/${name}/dist/index.d.ts`, 11);
    }
    return dir;
  };
  const stale = (dir: string) => staleBuilds(dir, list, ['tsconfig.base.json']).map((build) => build.dir);

  it('builds nothing when every dist is newer than its sources (the second start)', () => {
    expect(stale(workspace())).toEqual([]);
  });

  it('builds a package whose source or package.json is newer than the oldest file of its dist', () => {
    const dir = workspace();
    file(dir, 'packages/b/src/deep/changed.ts', 10.5);
    expect(stale(dir)).toEqual(['packages/b']);
    file(dir, 'packages/a/package.json', 12);
    expect(stale(dir)).toEqual(['packages/a', 'packages/b']);
  });

  it('builds a package without dist, and every package when a shared input changed', () => {
    const dir = workspace();
    file(dir, 'packages/c/src/index.ts', 1);
    expect(staleBuilds(dir, [...list, { dir: 'packages/c', inputs: ['src'] }], []).map((build) => build.dir)).toEqual(['packages/c']);
    file(dir, 'tsconfig.base.json', 20);
    expect(stale(dir)).toEqual(['packages/a', 'packages/b']);
  });

  it('covers every package the demo loads, and their inputs exist', () => {
    expect(builds.map((build) => build.dir)).toEqual([
      'packages/types',
      'packages/browser',
      'packages/tracker',
      'packages/server',
      'packages/cli',
      'reference-server',
    ]);
    const missing = builds
      .flatMap((build) => build.inputs.map((input) => join(build.dir, input)))
      .filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });
});
