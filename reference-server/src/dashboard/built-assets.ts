import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dashboard's browser code, built from src/dashboard/client by scripts/build-dashboard.ts into dist/dashboard:
 * these files and nothing else are served under /dashboard/assets/ (routes/dashboard-page.ts).
 */
export const dashboardAssetFiles = [
  'overview.js',
  'events.js',
  'partners.js',
  'partner-detail.js',
  'payouts.js',
  'commissions.js',
  'webhooks.js',
  'webhook-endpoint.js',
  'risk.js',
  'settings.js',
  'team.js',
  'audit.js',
  'new-program.js',
  'partner-view.js',
  'app.css',
] as const;
export type DashboardAsset = (typeof dashboardAssetFiles)[number];

export interface BuiltAssets {
  /** The directory holding the built files. */
  dir: string;
  /** Each file's version: a hash of its content, the `?v=` the pages put on its URL. */
  versions: ReadonlyMap<string, string>;
}

let built: BuiltAssets | undefined;

/** This package's root, found upwards from this module: src/dashboard in tests, dist/ (or dist/testing/) once built. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === '@svc/reference-server')
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('The @svc/reference-server package root was not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** The built assets, read once per process; throws, naming the fix, while they are not built. */
export function builtDashboardAssets(): BuiltAssets {
  if (built) return built;
  const dir = join(packageRoot(), 'dist', 'dashboard');
  const versions = new Map<string, string>();
  for (const file of dashboardAssetFiles) {
    let content: Buffer;
    try {
      content = readFileSync(join(dir, file));
    } catch {
      throw new Error(`The dashboard's ${file} is not built in ${dir}: run pnpm --filter @svc/reference-server build`);
    }
    versions.set(file, createHash('sha256').update(content).digest('base64url').slice(0, 16));
  }
  built = { dir, versions };
  return built;
}

/** The URL a page loads an asset from: versioned by its content, so that it can be cached for good. */
export function dashboardAssetUrl(file: DashboardAsset): string {
  return `/dashboard/assets/${file}?v=${builtDashboardAssets().versions.get(file)}`;
}
