import { buildApp } from '../app';
import type { LogOptions } from '../http/logging';
import { openStore, type OpenStoreOptions, type Store } from '../store/db';
import { loadServerSdk } from './sdk';
import { demo, seedDemo, type Seeded } from './seed';
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
  /** Request logs; the demo keeps quiet unless `LOG_LEVEL` asks. */
  log?: LogOptions;
  /** `SVC_PROCESSOR_WEBHOOK_SECRET`, to try real Stripe deliveries against the demo. */
  processorWebhookSecrets?: string[];
  secretKey?: string;
  /** Called as each step of the start ends, with its duration (`pnpm start` prints them). */
  onStep?: (step: string, ms: number) => void;
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
  let since = performance.now();
  const step = (name: string) => {
    options.onStep?.(name, performance.now() - since);
    since = performance.now();
  };
  const store = await openStore(options.databaseUrl, options.storeOptions);
  step('database opened and migrated');
  try {
    // The demo signs in with the development sign-in (any email): its banner says so.
    const app = buildApp({
      store,
      publicUrl: url,
      devSignIn: true,
      // A local playground: outbound webhooks may go to a backend on this machine (examples/fastify-backend).
      webhooksAllowPrivate: true,
      devSignInHint: `Demo: sign in as ${demo.email} (owner of the demo program) or ${demo.partnerEmail} (the demo partner's own view).`,
      ...(options.log ? { log: options.log } : {}),
      ...(options.processorWebhookSecrets ? { processorWebhookSecrets: options.processorWebhookSecrets } : {}),
      ...(options.secretKey ? { secretKey: options.secretKey } : {}),
    });
    const sitePath = storefrontPath.replace(/\/$/, '');
    const seeded = await seedDemo(store, app.svc.clock, { sitePath, ...(options.apiKey ? { apiKey: options.apiKey } : {}) });
    step('demo program seeded');
    app.register(storefrontRoutes, { dir: storefrontDir, sdk, programId: seeded.programId, apiKey: seeded.apiKey, baseUrl: () => url });
    await app.listen({ port: options.port, host: options.host });
    step(`listening on ${url}`);
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
