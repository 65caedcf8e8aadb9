import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertValidResponse } from '../../src/testing/validate';
import { createHarness, type Harness } from '../harness';
import { privateDatabase } from '../scale/databases';
import { freePort, serverEntry, spawnServer } from '../scale/server-process';
import { createWorld } from '../tracking/world';

// Operator-set limits (`SVC_RATE_LIMITS=lead=300,…`): a backend reporting every signup in server_required mode
// needs more than the default 30 leads a minute from its one address.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ rateLimitOverrides: { lead: 40, money: 3 } });
  const now = Date.parse((await h.control.clock({ advance_seconds: 0 })).now);
  await h.control.clock({ now: new Date(Math.ceil(now / 60_000) * 60_000 + 1000).toISOString() });
});
afterAll(() => h.close());

describe('configured limits', () => {
  it('a raised lead limit lets the 31st lead through, shows the limit in X-RateLimit-Limit, and refuses past it', async () => {
    const w = await createWorld(h, { lead_auth: 'server_required' });
    for (let i = 0; i < 40; i++) {
      const res = await w.lead({ customer_key: `signup_${i}`, email: `u${i}@shop.example` });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('40');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(39 - i));
    }
    const refused = await w.lead({ customer_key: 'signup_late' });
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('40');
    expect((await w.records()).customers).toHaveLength(40);
  });

  it('a lowered limit applies to sale and refund together; the routes not named keep the spec default', async () => {
    const w = await createWorld(h);
    for (let i = 0; i < 2; i++) expect((await w.sale({})).status).toBe(400);
    expect((await w.refund({})).status).toBe(400);
    const refused = await w.sale({});
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect((await w.click()).headers['x-ratelimit-limit']).toBe('60');
  });
});

describe('SVC_RATE_LIMITS at start-up', () => {
  it('the server reads it from the environment', async () => {
    const db = privateDatabase('limits');
    const server = await spawnServer({ databaseUrl: db.url, env: { SVC_RATE_LIMITS: 'lead=300' } });
    try {
      const res = await fetch(`${server.url}/api/v1/track/lead`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      const body = await res.text();
      assertValidResponse({
        method: 'POST',
        url: '/api/v1/track/lead',
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body,
      });
      expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    } finally {
      await server.stop();
      await db.dispose();
    }
  });

  it('a wrong value stops the start with one line naming the variable', async () => {
    const child = spawn(process.execPath, [serverEntry], {
      env: { ...process.env, PORT: String(await freePort()), DATABASE_URL: 'sqlite::memory:', SVC_RATE_LIMITS: 'leads=300' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2); // a configuration error (config-error.ts)
    expect(output).toMatch(/^svc-reference-server: SVC_RATE_LIMITS: unknown limit "leads=300"; [^\n]*\n$/);
  });
});
