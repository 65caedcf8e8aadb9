import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { programWithRecords, textCells } from './fixtures';

// Program keys, login tokens and dashboard sessions are stored hashed (spec/openapi.yaml securitySchemes): after
// issuing every kind, no text column of any table holds one of them, whole or in part.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** The secret part of an issued credential: the full value, and the value without its public prefix. */
function fragments(secret: string): string[] {
  const withoutPrefix = secret.replace(/^(svc_(live|test|login)_|svc_session=)/, '');
  return [secret, withoutPrefix, withoutPrefix.slice(0, 16), withoutPrefix.slice(-16)];
}

describe('no plaintext credential in the database', () => {
  it('holds no program key, login token or session, whole or in part, in any text column', async () => {
    const issued: string[] = [];
    const a = await programWithRecords(h);
    const b = await programWithRecords(h);
    issued.push(a.key, b.key);

    // A CLI login (the real flow), then a program created through `cli/init` with that token.
    const start = await h.request('POST', '/api/v1/cli/auth/start', { json: {} });
    const { id_token } = await h.control.issueIdToken(a.accountId);
    expect((await h.request('POST', '/api/v1/cli/auth/callback', { json: { state: start.body.data.state, id_token } })).status).toBe(200);
    const poll = await h.request('GET', `/api/v1/cli/auth/poll?state=${encodeURIComponent(start.body.data.state)}`);
    const loginToken = poll.body.data.token as string;
    issued.push(loginToken);
    const init = await h.request('POST', '/api/v1/cli/init', {
      json: { name: 'Keys', domain: 'keys.example.com', commission_type: 'percent', commission_rate: 10 },
      key: loginToken,
    });
    expect(init.status).toBe(201);
    issued.push(init.body.data.program.api_token);

    // A dashboard session, and a key regenerated through the dashboard (old and new both absent).
    const { cookie } = await h.control.createDashboardSession(a.accountId);
    issued.push(cookie);
    const regenerated = await h.request('POST', `/api/dashboard/programs/${a.id}/regenerate-key`, { json: {}, headers: { cookie } });
    expect(regenerated.status).toBe(200);
    const newKey = JSON.stringify(regenerated.body).match(/svc_(live|test)_[A-Za-z0-9_-]+/)?.[0];
    expect(newKey).toBeDefined();
    issued.push(newKey!);

    const cells = await textCells(h.store);
    expect(cells.length).toBeGreaterThan(20);
    for (const secret of issued) {
      for (const fragment of fragments(secret)) {
        const found = cells.filter((cell) => cell.value.includes(fragment)).map((cell) => cell.where);
        expect(found, `a fragment of an issued credential is stored in ${found.join(', ')}`).toEqual([]);
      }
    }
  });
});
