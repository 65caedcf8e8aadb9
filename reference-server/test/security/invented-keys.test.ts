import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { buckets } from '../../src/http/rate-limit';
import { openStore, uniqueSchemaName, type Store } from '../../src/store/db';
import { contractFetch } from '../../src/testing/fetch';

// Failed authentication counts against the client's address, not against the key it invented: a bucket per invented
// key would never limit guessing. Real sockets, so the address is the socket's.
let store: Store;
let app: ReturnType<typeof buildApp>;
let base: string;
beforeAll(async () => {
  store = await openStore(process.env.DATABASE_URL ?? 'sqlite::memory:', { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
  app = buildApp({ store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await store.close();
});

const sale = (key: string) =>
  contractFetch(`${base}/api/v1/track/sale`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ transaction_id: 'txn', amount_cents: 100 }),
  });

describe('invented API keys', () => {
  it('each a new key: 401 until the address has failed the limit, then 429 before any key is looked at', async () => {
    const limit = buckets.authFailures.limit;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) statuses.push((await sale(`svc_live_${randomBytes(12).toString('hex')}`)).status);
    expect(statuses.slice(0, limit).every((s) => s === 401)).toBe(true);
    const refused = await sale(`svc_live_${randomBytes(12).toString('hex')}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Routes counted per IP (click) are not affected by the address's failed logins.
    const click = await contractFetch(`${base}/api/v1/track/click`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(click.status).toBe(400);
  });
});
