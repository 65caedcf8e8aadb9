import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { run } from './run';
import { root } from './workspace';

/**
 * `changeset version` in a scratch copy of the workspace's manifests and pending changesets (never in the
 * checkout: version bumps are the release's, not a test's). Returns the copy's directory.
 */
export async function versionScratchCopy(scratch: string): Promise<string> {
  const under = async (dir: string) =>
    (await readdir(join(root, dir), { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => `${dir}/${d.name}`);
  const workspaces = [...(await under('packages')), 'reference-server', ...(await under('examples'))];
  for (const file of ['package.json', 'pnpm-workspace.yaml']) await cp(join(root, file), join(scratch, file));
  await cp(join(root, '.changeset'), join(scratch, '.changeset'), { recursive: true });
  for (const dir of workspaces) {
    await mkdir(join(scratch, dir), { recursive: true });
    await cp(join(root, dir, 'package.json'), join(scratch, dir, 'package.json'));
  }
  const cli = join(dirname(createRequire(join(root, 'package.json')).resolve('@changesets/cli/package.json')), 'bin.js');
  await run(process.execPath, [cli, 'version'], { cwd: scratch });
  return scratch;
}

export const readText = (path: string) => readFile(path, 'utf8');
