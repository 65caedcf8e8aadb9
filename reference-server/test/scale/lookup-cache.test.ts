import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl, privateDatabase, type PrivateDatabase } from './databases';
import { spawnServer, type ServerProcess } from './server-process';

// Two servers on one PostgreSQL schema, each with its lookup cache (reference-server/src/store/engine/lookup-cache.ts):
// a change answered by one reaches the other through LISTEN/NOTIFY within the documented bound of one second
// (docs/performance-notes.md, "Cached lookups"). The entries' own age limit is raised to ten minutes here, so only the
// notification can explain the other server seeing the change. SQLite is one process: nothing to learn there.
const skipReason = postgresUrl ? undefined : 'DATABASE_URL does not name PostgreSQL';
if (skipReason) console.warn(`lookup cache across servers skipped: ${skipReason}`);

const boundMs = 1000;

/** Calls `probe` until it answers `status`, for at most the bound; returns what it last answered. */
async function within(probe: () => Promise<number>, status: number): Promise<number> {
  const deadline = Date.now() + boundMs;
  let last = await probe();
  while (last !== status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await probe();
  }
  return last;
}

describe.skipIf(skipReason)('cached lookups across two servers on one PostgreSQL', () => {
  let db: PrivateDatabase;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    db = privateDatabase('cache');
    const env = { SVC_LOOKUP_CACHE_MAX_AGE_MS: '600000', SVC_RATE_LIMITS: 'off' };
    a = await spawnServer({ databaseUrl: db.url, env });
    b = await spawnServer({ databaseUrl: db.url, env });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.dispose();
  });

  const post = async (server: ServerProcess, path: string, body: unknown, headers: Record<string, string> = {}) =>
    (
      await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    ).status;

  it('a link turned off on one server refuses clicks on the other within one second, and back on', async () => {
    const program = await a.control.createProgram({});
    const partner = await a.control.createPartner({ program_id: program.id });
    const link = await a.control.createLink({ program_id: program.id, partner_id: partner.id });
    const clickOnB = () => post(b, '/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
    expect(await clickOnB()).toBe(200);
    await a.control.setLinkEnabled(link.short_link, false);
    expect(await within(clickOnB, 410)).toBe(410);
    await a.control.setLinkEnabled(link.short_link, true);
    expect(await within(clickOnB, 200)).toBe(200);
  });

  it('a key regenerated on one server is refused by the other within one second', async () => {
    const program = await a.control.createProgram({});
    const cookie = (await a.control.createDashboardSession(program.account_id)).cookie;
    const saleOnB = (key: string) =>
      post(b, '/api/v1/track/sale', { amount_cents: 100, currency: 'USD', customer_key: 'nobody' }, { authorization: `Bearer ${key}` });
    // Known key, unknown customer: 400, so the key's program is now cached on B.
    expect(await saleOnB(program.api_token)).toBe(400);
    const res = await fetch(`${a.url}/api/dashboard/programs/${program.id}/regenerate-key`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const fresh = ((await res.json()) as { data: { program: { api_token: string } } }).data.program.api_token;
    expect(await within(() => saleOnB(program.api_token), 401)).toBe(401);
    expect(await saleOnB(fresh)).toBe(400);
  });
});
