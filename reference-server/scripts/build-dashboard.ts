/**
 * Builds the dashboard's browser code (src/dashboard/client) into dist/dashboard: one minified script per section
 * (overview.js, partners.js, webhooks.js, …, each an IIFE, as the page's CSP allows no inline script) and app.css. The
 * server serves exactly these files (src/dashboard/built-assets.ts). Run by `pnpm build` after tsup, and by
 * the tests' global setup (test/global-setup.ts) so that they always serve the current source.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const client = join(packageRoot, 'src', 'dashboard', 'client');

/** Where the built assets go (src/dashboard/built-assets.ts reads them from there). */
export const dashboardAssetsDir = join(packageRoot, 'dist', 'dashboard');

/** The entry point of each served file. */
const entries = [
  ...[
    'overview',
    'events',
    'partners',
    'partner-detail',
    'payouts',
    'commissions',
    'webhooks',
    'webhook-endpoint',
    'risk',
    'settings',
    'team',
    'audit',
    'new-program',
    'partner-view',
  ].map((name) => ({ in: join(client, `${name}.ts`), out: name })),
  { in: join(client, 'app.css'), out: 'app' },
];

/** Bundles and minifies the client code, then writes each file whole (a reader never sees half of one). */
export async function buildDashboardAssets(outDir = dashboardAssetsDir): Promise<string[]> {
  const result = await build({
    entryPoints: entries,
    outdir: outDir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
    written.push(basename(file.path));
  }
  return written.sort();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const written = await buildDashboardAssets();
  process.stdout.write(`dashboard assets: ${written.join(', ')} in ${dashboardAssetsDir}\n`);
}
