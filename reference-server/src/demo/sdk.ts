import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { SaleRequest, SaleResponse } from '@svc/types';

/** The slice of `@svc/server` the demo backend uses. */
export interface ServerSdk {
  Svc: new (options: { apiKey: string; baseUrl: string }) => {
    track: { sale(body: SaleRequest): Promise<SaleResponse & { duplicate: boolean; requestId?: string }> };
  };
  SvcApiError: abstract new (...args: never[]) => Error & { status: number; code?: string };
}

/**
 * Loads `@svc/server` as the storefront example's dependency. The reference server cannot depend on the SDK:
 * the SDK's contract tests depend on the server, and a cycle in the workspace graph makes `pnpm -r build` build
 * both at once. The demo already needs the example on disk (it serves its page), so it borrows its dependency.
 */
export function loadServerSdk(storefrontDir: string): ServerSdk {
  const require = createRequire(join(storefrontDir, 'package.json'));
  return require('@svc/server') as ServerSdk;
}
