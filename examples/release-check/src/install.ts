import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runWithOutput } from './run';
import { root } from './workspace';

/**
 * Installs every tarball together into a fresh npm project (so `@svc/*` ranges resolve to the tarballs, not to
 * the registry); their third-party dependencies come from the npm registry.
 *
 * Install scripts are skipped: `better-sqlite3` would compile from source (its prebuilt-binary download is not on
 * the npm registry), measured at 2 min 43 s on the 2-core CI machine. The workspace's own compiled binary of the
 * same pinned version for the same Node is copied in instead, which is what a prebuilt download would give.
 */
export async function installTarballs(project: string, tarballs: string[]): Promise<string> {
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'svc-release-check', private: true, type: 'module' }));
  // Warnings kept: a user's install must print none (an engine warning says a dependency wants a newer Node).
  const { stderr } = await runWithOutput(
    'npm',
    ['install', ...tarballs, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=warn'],
    {
      cwd: project,
    },
  );

  const workspaceSqlite = dirname(createRequire(join(root, 'reference-server/package.json')).resolve('better-sqlite3/package.json'));
  const installed = join(project, 'node_modules/better-sqlite3/build/Release');
  await mkdir(installed, { recursive: true });
  await copyFile(join(workspaceSqlite, 'build/Release/better_sqlite3.node'), join(installed, 'better_sqlite3.node'));
  return stderr;
}
