import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { openStore, uniqueSchemaName, type Store } from '../../src/store/db';
import { assertValidResponse } from '../../src/testing/validate';

// One database, several server processes over time (or side by side): what the server signs and the sessions it
// hands out must survive a restart and agree between instances, with no SVC_SECRET_KEY configured.
let store: Store;
beforeAll(async () => {
  store = await openStore(process.env.DATABASE_URL ?? 'sqlite::memory:', { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
});
afterAll(() => store.close());

async function signInWithDevForm(app: ReturnType<typeof buildApp>, email: string) {
  const page = await app.inject({ method: 'GET', url: '/auth/sign-in' });
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
  return app.inject({
    method: 'POST',
    url: '/auth/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: String(page.headers['set-cookie']).split(';')[0]! },
    payload: `email=${encodeURIComponent(email)}&csrf=${encodeURIComponent(csrf)}`,
  });
}

describe('the server secret and sessions across restarts', () => {
  it('a session started before a restart still works after it, on the database reopened, with the same server key', async () => {
    // A real restart: the first server and its database connection are closed, then a second opens the same
    // database (a file for SQLite, a schema for PostgreSQL); only what was stored carries over.
    const postgres = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
    const dir = mkdtempSync(join(tmpdir(), 'svc-restart-'));
    const url = postgres ?? `sqlite:${join(dir, 'svc.sqlite')}`;
    const pgSchema = uniqueSchemaName();
    const before = await openStore(url, { pgSchema });
    const first = buildApp({ store: before, devSignIn: true });
    await first.ready();
    const signedIn = await signInWithDevForm(first, 'restart@example.test');
    expect(signedIn.statusCode).toBe(303);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const key = await first.svc.serverKey();
    await first.close();
    await before.close();

    const after = await openStore(url, { pgSchema, dropSchemaOnClose: true });
    const second = buildApp({ store: after, devSignIn: true });
    await second.ready();
    try {
      expect(await second.svc.serverKey()).toBe(key);
      const res = await second.inject({ method: 'GET', url: '/api/dashboard/session', headers: { cookie } });
      assertValidResponse({ method: 'GET', url: '/api/dashboard/session', status: res.statusCode, headers: res.headers, body: res.body });
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body).data.email).toBe('restart@example.test');
    } finally {
      await second.close();
      await after.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two instances on one database agree on the server key', async () => {
    const one = buildApp({ store, devSignIn: true });
    const two = buildApp({ store, devSignIn: true });
    await Promise.all([one.ready(), two.ready()]);
    try {
      const [a, b] = await Promise.all([one.svc.serverKey(), two.svc.serverKey()]);
      expect(a).toBe(b);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('SVC_SECRET_KEY, when set, is the key', async () => {
    const app = buildApp({ store, secretKey: 'a-configured-secret-key-of-at-least-32-chars' });
    await app.ready();
    expect(await app.svc.serverKey()).toBe('a-configured-secret-key-of-at-least-32-chars');
    await app.close();
  });
});

describe('request logs', () => {
  it('are one JSON line per request with id, route, status and time, and never hold a key, token, cookie, state or secret', async () => {
    const lines: string[] = [];
    const app = buildApp({ store, devSignIn: true, log: { level: 'info', stream: { write: (line) => lines.push(line) } } });
    await app.ready();
    try {
      const signedIn = await signInWithDevForm(app, 'logs@example.test');
      const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
      const secrets = [cookie.split('=')[1]!, 'svc_live_thisIsNotARealKeyButLooksLikeOne0000000000', 'state-value-that-must-not-be-logged'];
      await app.inject({ method: 'GET', url: '/api/dashboard/session', headers: { cookie } });
      await app.inject({
        method: 'POST',
        url: '/api/v1/track/sale',
        headers: { authorization: `Bearer ${secrets[1]}`, 'content-type': 'application/json' },
        payload: '{}',
      });
      await app.inject({ method: 'GET', url: `/api/v1/cli/auth/poll?state=${secrets[2]}` });
      await app.inject({ method: 'GET', url: `/auth/sign-in?state=${secrets[2]}` });

      const requests = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request');
      expect(requests.length).toBeGreaterThanOrEqual(6);
      for (const entry of requests) {
        expect(entry).toMatchObject({
          level: 30,
          reqId: expect.any(String),
          method: expect.any(String),
          status: expect.any(Number),
          ms: expect.any(Number),
        });
      }
      expect(requests).toContainEqual(
        expect.objectContaining({ route: '/api/v1/cli/auth/poll', path: '/api/v1/cli/auth/poll', status: 404 }),
      );
      const all = lines.join('\n');
      for (const secret of secrets) expect(all).not.toContain(secret);
      expect(all).not.toContain('csrf=');
    } finally {
      await app.close();
    }
  });
});
