import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { readConfig } from '../../src/config';
import { parseTrustProxy } from '../../src/http/trust-proxy';
import { openStore, uniqueSchemaName, type Store } from '../../src/store/db';
import { contractFetch } from '../../src/testing/fetch';

// With TRUST_PROXY=1 the client's own leftmost X-Forwarded-For entry must not pick its
// rate-limit bucket. Real sockets: the test is the client and plays the one proxy (which appends what it saw).
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(env: Record<string, string>): Promise<string> {
  const store: Store = await openStore(process.env.DATABASE_URL ?? 'sqlite::memory:', {
    pgSchema: uniqueSchemaName(),
    dropSchemaOnClose: true,
  });
  const app = buildApp({ store, trustProxy: readConfig(env).trustProxy });
  await app.listen({ host: '127.0.0.1', port: 0 });
  close = async () => {
    await app.close();
    await store.close();
  };
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function click(base: string, forwardedFor: string): Promise<number> {
  const res = await contractFetch(`${base}/api/v1/track/click`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: '{}',
  });
  return res.status;
}

/** 61 clicks (limit 60 per IP), each with a new forged leftmost address and the proxy's view last; then another client. */
async function spoofedClicks(base: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 61; i++) statuses.push(await click(base, `198.51.100.${i}, 203.0.113.7`));
  statuses.push(await click(base, '203.0.113.8'));
  return statuses;
}

describe('TRUST_PROXY', () => {
  it('1 trusts one hop: forged leftmost addresses share the real client bucket and hit the limit', async () => {
    const statuses = await spoofedClicks(await serve({ TRUST_PROXY: '1' }));
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    expect(statuses[60]).toBe(429);
    // The address the proxy saw is the client: another client behind the same proxy has its own bucket.
    expect(statuses[61]).toBe(400);
  });

  it('a list of proxy addresses trusts only those hops', async () => {
    const statuses = await spoofedClicks(await serve({ TRUST_PROXY: '127.0.0.1/8, ::1' }));
    expect(statuses[60]).toBe(429);
    expect(statuses[61]).toBe(400);
  });

  it('parses hop counts and address lists, and refuses true and garbage', () => {
    expect(parseTrustProxy(undefined)).toBe(0);
    expect(parseTrustProxy('0')).toBe(0);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.10,loopback')).toEqual(['10.0.0.0/8', '192.168.1.10', 'loopback']);
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
  });
});
