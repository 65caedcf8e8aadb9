import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every package published to npm, by directory (the lead's list in ARCHITECTURE.md / README "Workspace"). */
export const published = [
  { name: '@svc/types', dir: 'packages/types' },
  { name: '@svc/server', dir: 'packages/server' },
  { name: '@svc/browser', dir: 'packages/browser' },
  { name: '@svc/tracker', dir: 'packages/tracker' },
  { name: '@svc/cli', dir: 'packages/cli' },
  { name: '@svc/reference-server', dir: 'reference-server' },
] as const;

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  files?: string[];
  engines?: { node?: string };
  publishConfig?: { access?: string };
  dependencies?: Record<string, string>;
}

export async function manifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(new URL(`${dir}/package.json`, `file://${root}`), 'utf8')) as Manifest;
}
