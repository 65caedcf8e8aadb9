import { buildApp } from '../app';
import { openStore, type OpenStoreOptions, type Store } from '../store/db';
import { loadServerSdk } from './sdk';
import { seedDemo, type Seeded } from './seed';
import { storefrontPath, storefrontRoutes } from './storefront';
import { findStorefrontDir } from './storefront-files';

export interface DemoOptions {
  databaseUrl: string;
  /** PostgreSQL schema options (tests run each demo in its own schema). */
  storeOptions?: OpenStoreOptions;
  port: number;
  host: string;
  /** Where browsers reach the demo; default `http://<host>:<port>`. */
  publicUrl?: string;
  /** A fixed program key (`SVC_DEMO_API_KEY`); otherwise a new one each start. */
  apiKey?: string;
  logger?: boolean;
}

export interface Demo {
  url: string;
  seeded: Seeded;
  store: Store;
  links: { storefront: string; referral: string; dashboard: string; signIn: string };
  close(): Promise<void>;
}

/** `pnpm start`: the reference server on its database, the seeded demo program, and the demo storefront. */
export async function startDemo(options: DemoOptions): Promise<Demo> {
  const url = options.publicUrl ?? `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${options.port}`;
  const storefrontDir = findStorefrontDir();
  const sdk = loadServerSdk(storefrontDir);
  const store = await openStore(options.databaseUrl, options.storeOptions);
  try {
    const app = buildApp({ store, publicUrl: url, logger: options.logger ?? false });
    const seeded = await seedDemo(store, app.svc.clock, options.apiKey ? { apiKey: options.apiKey } : {});
    app.register(storefrontRoutes, { dir: storefrontDir, sdk, programId: seeded.programId, apiKey: seeded.apiKey, baseUrl: () => url });
    await app.listen({ port: options.port, host: options.host });
    return {
      url,
      seeded,
      store,
      links: {
        storefront: `${url}${storefrontPath}`,
        referral: `${url}${storefrontPath}?aff=${encodeURIComponent(seeded.shortLink)}`,
        dashboard: `${url}/dashboard`,
        signIn: `${url}/auth/sign-in`,
      },
      async close() {
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
