import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './run';
import { published, root } from './workspace';

/** `pnpm pack` of every published package (from its built dist) into `destination`; the tarball paths. */
export async function packAll(destination: string): Promise<Record<string, string>> {
  // One at a time: pnpm pack is quick (about a second each) and parallel packs contend for two cores.
  for (const { dir } of published) await run('pnpm', ['pack', '--pack-destination', destination], { cwd: join(root, dir) });
  const files = await readdir(destination);
  return Object.fromEntries(
    published.map(({ name }) => {
      const prefix = `${name.slice(1).replace('/', '-')}-`;
      const file = files.find((f) => f.startsWith(prefix) && f.endsWith('.tgz'));
      if (!file) throw new Error(`no tarball for ${name} in ${destination}`);
      return [name, join(destination, file)];
    }),
  );
}

/** The file list of a tarball (`package/…` stripped). */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const out = await run('tar', ['tzf', tarball], { cwd: root });
  return out
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
}
