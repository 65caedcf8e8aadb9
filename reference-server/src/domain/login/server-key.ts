import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock';
import type { Store } from '../../store/db';
import { storedSecret } from '../../store/server-secrets';

/** At least 256 bits of key material for HMAC-SHA256 (RFC 7518 section 3.2). */
export const minSecretKeyLength = 32;

/**
 * The one server secret (docs/deploying.md, `SVC_SECRET_KEY`): the configured value, or one generated once and
 * kept in the database, so every instance on the database agrees and what it signed survives restarts.
 */
export function serverKeyLoader(store: Store, clock: Clock, configured: string | undefined): () => Promise<string> {
  if (configured !== undefined) return () => Promise.resolve(configured);
  let loading: Promise<string> | undefined;
  return () => {
    loading ??= storedSecret(store.db, 'server_key', randomBytes(32).toString('base64url'), clock.now()).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
