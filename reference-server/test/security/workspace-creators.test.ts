import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { loginToken } from '../cli/support';

// `svc init` (POST /api/v1/cli/init) under SVC_WORKSPACE_CREATORS: the same rule as the dashboard's New program
// (test/oidc/creators.test.ts signs in through a real identity provider). Here the accounts come from test control,
// with the rule set explicitly (test control alone would let anyone create).
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ workspaceCreators: { emails: ['boss@shop.example'], domains: ['@team.example'] } });
});
afterAll(() => h?.close());

const valid = { name: 'Acme', domain: 'acme.example', commission_type: 'percent', commission_rate: 20 };
const init = (key: string, json: unknown) => h.request('POST', '/api/v1/cli/init', { key, json });

describe('svc init and SVC_WORKSPACE_CREATORS', () => {
  it('creates for a listed email or domain, and refuses anyone else with 403 before reading a field, creating nothing', async () => {
    for (const email of ['boss@shop.example', 'ann@team.example']) {
      const { account_id } = await h.control.createAccount({ email });
      expect((await init(await loginToken(h, account_id), valid)).status, email).toBe(201);
    }
    const { account_id } = await h.control.createAccount({ email: 'partner@elsewhere.example' });
    const token = await loginToken(h, account_id);
    const before = await h.store.db.selectFrom('programs').select('id').execute();
    for (const body of [valid, {}]) {
      const refused = await init(token, body);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe(
        'This account may not create programs on this server. Ask a workspace owner for an invitation to their workspace.',
      );
    }
    expect(await h.store.db.selectFrom('programs').select('id').execute()).toEqual(before);
  });
});
