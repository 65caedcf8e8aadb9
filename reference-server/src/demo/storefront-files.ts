import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files of `examples/storefront/public` the demo serves, with their content types (nothing else is served). */
export const storefrontFiles: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'store.js': 'text/javascript; charset=utf-8',
  'store.css': 'text/css; charset=utf-8',
};

/** Finds `examples/storefront` above this module (src/demo in tests, dist/ once built). */
export function findStorefrontDir(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'examples', 'storefront');
    if (existsSync(join(candidate, 'public', 'index.html'))) return candidate;
    if (dirname(dir) === dir) throw new Error('examples/storefront not found: the demo runs from a checkout of the svc repository');
  }
}

/** Reads a page file; the tracker tag gets the demo program's id (the copyable page carries a placeholder one). */
export async function readStorefrontFile(dir: string, file: string, programId: number): Promise<string> {
  const text = await readFile(join(dir, 'public', file), 'utf8');
  return file === 'index.html' ? text.replace(/data-svc-program-id="\d+"/, `data-svc-program-id="${programId}"`) : text;
}
