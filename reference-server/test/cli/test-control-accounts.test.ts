import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ publicUrl: 'http://svc.test' });
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.control.reset();
});

describe('test-control accounts', () => {
  it('creates an account with advertiser, workspace and owner membership', async () => {
    const created = await h.request('POST', '/_test/accounts', { json: { email: 'a@example.test' } });
    expect(created.status).toBe(201);
    const { account_id, advertiser_id } = created.body;
    const workspace = await h.store.db
      .selectFrom('workspaces')
      .selectAll()
      .where('advertiser_id', '=', advertiser_id)
      .executeTakeFirstOrThrow();
    const membership = await h.store.db
      .selectFrom('memberships')
      .selectAll()
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ account_id, role: 'owner', active: 1 });

    const duplicate = await h.request('POST', '/_test/accounts', { json: { email: 'a@example.test' } });
    expect(duplicate.status).toBe(400);
    const badBlocked = await h.request('POST', '/_test/accounts', { json: { blocked: 'yes' } });
    expect(badBlocked.status).toBe(400);
  });

  it('issues an HS256 id_token for the CLI audience', async () => {
    const { account_id } = await h.control.createAccount({ email: 'b@example.test' });
    const { id_token } = await h.control.issueIdToken(account_id);
    const claims = decodeJwt(id_token);
    expect(claims).toMatchObject({ iss: 'http://svc.test', aud: 'svc-cli', sub: String(account_id), email: 'b@example.test' });
    expect(claims.exp! - claims.iat!).toBe(300);
    expect((await h.request('POST', '/_test/id-tokens', { json: { account_id: 999999 } })).status).toBe(404);
    expect((await h.request('POST', '/_test/id-tokens', { json: {} })).status).toBe(400);
  });

  it('signs an account in to the dashboard', async () => {
    const { account_id } = await h.control.createAccount();
    const { cookie } = await h.control.createDashboardSession(account_id);
    expect(cookie).toMatch(/^svc_session=svc_sess_/);
    expect((await h.request('POST', '/_test/dashboard-sessions', { json: { account_id: 999999 } })).status).toBe(404);
  });
});
