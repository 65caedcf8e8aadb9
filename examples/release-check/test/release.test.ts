import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionScratchCopy } from '../src/changeset';
import { installTarballs } from '../src/install';
import { packAll, tarballFiles } from '../src/pack';
import { run } from '../src/run';
import { manifest, published } from '../src/workspace';

let scratch: string;
let tarballs: Record<string, string>;
let project: string;
let installWarnings: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-release-'));
  const started = Date.now();
  tarballs = await packAll(join(scratch, 'tarballs'));
  project = join(scratch, 'project');
  installWarnings = await installTarballs(project, Object.values(tarballs));
  // The scripts must sit in the project: Node resolves packages from the importing file, not from the cwd.
  await cp(new URL('../fixture/', import.meta.url), project, { recursive: true });
  console.log(`release-check: packed and installed ${published.length} packages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 300_000);
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('every published package', () => {
  it.each(published)('$name declares files, engines, publishConfig and the MIT license', async ({ dir, name }) => {
    const pkg = await manifest(dir);
    expect(pkg.name).toBe(name);
    expect(pkg.private).toBeUndefined();
    expect(pkg.license).toBe('MIT');
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'CHANGELOG.md']));
    expect(pkg.engines?.node).toMatch(/^>=(18|20)/);
    expect(pkg.publishConfig?.access).toBe('public');
  });

  it.each(published)('$name packs its dist, README and LICENSE, and no sources or tests', async ({ name }) => {
    const files = await tarballFiles(tarballs[name]!);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'LICENSE', 'README.md']));
    expect(files.some((f) => f.startsWith('dist/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || /\.test\.[cm]?[jt]s$/.test(f))).toEqual([]);
  });

  it.each(published)('$name resolves its workspace dependencies to versions in the tarball', async ({ name }) => {
    const packed = JSON.parse(await run('tar', ['xzf', tarballs[name]!, '-O', 'package/package.json'], { cwd: scratch })) as {
      dependencies?: Record<string, string>;
    };
    expect(Object.values(packed.dependencies ?? {}).filter((range) => range.startsWith('workspace:'))).toEqual([]);
  });
});

describe('the installed tarballs', () => {
  it('install on Node 20 without an engine warning (no dependency wants a newer Node)', () => {
    expect(installWarnings).not.toMatch(/EBADENGINE|Unsupported engine/);
  });

  it('record a click, a lead and a sale with the installed @svc/server against the installed reference server', async () => {
    const out = JSON.parse(await run(process.execPath, [join(project, 'smoke.mjs')], { cwd: project, env: { SMOKE_DATABASE_URL: '' } }));
    expect(out.sale).toMatchObject({ success: true, duplicate: false, commission_id: expect.any(Number) });
    expect(out.records.sales).toMatchObject([{ id: out.sale.sale_id, amount_cents: 2500 }]);
    expect(out.records.commissions).toMatchObject([{ amount_cents: 250 }]);
    // The installed reference server serves the installed @svc/tracker's svc-tracker.js.
    expect(out.tracker).toMatchObject({ status: 200, type: expect.stringMatching(/javascript/) });
    expect(out.tracker.bytes).toBeGreaterThan(500);
  });

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))('run the same on PostgreSQL with the installed pg driver', async () => {
    const out = JSON.parse(
      await run(process.execPath, [join(project, 'smoke.mjs')], { cwd: project, env: { SMOKE_DATABASE_URL: process.env.DATABASE_URL } }),
    );
    expect(out.records.sales).toHaveLength(1);
  });

  it('load with require() where the package ships CommonJS', async () => {
    const out = JSON.parse(await run(process.execPath, [join(project, 'require.cjs')], { cwd: project }));
    expect(out).toEqual({ svc: 'function', stripe: 'function', currencies: ['USD', 'EUR', 'VND'], browser: 'function' });
  });

  it('install the svc command', async () => {
    const help = await run(join(project, 'node_modules/.bin/svc'), ['--help'], { cwd: project });
    expect(help).toMatch(/login/);
    expect(help).toMatch(/status/);
  });
});

describe('changeset version (in a scratch copy, never committed)', () => {
  it('bumps every package named by a pending changeset and writes its CHANGELOG.md', async () => {
    const copy = await versionScratchCopy(join(scratch, 'changesets'));
    for (const { dir, name } of published) {
      const before = await manifest(dir);
      const after = JSON.parse(await readFile(join(copy, dir, 'package.json'), 'utf8')) as { version: string };
      expect(after.version, name).not.toBe(before.version);
      expect(await readFile(join(copy, dir, 'CHANGELOG.md'), 'utf8')).toMatch(
        new RegExp(`^# ${name}\\n\\n## ${after.version.replace(/\./g, '\\.')}`),
      );
    }
  }, 60_000);
});
