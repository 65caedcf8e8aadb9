import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { operations } from '../../fuzz/property';
import { createHarness, type Harness } from '../harness';
import { programWithRecords, rowCounts, type ProgramFixture } from './fixtures';

// spec/rules.md "Dashboard routes": "A Bearer program key is not accepted on any of them." Every dashboard operation of the
// spec (read from it, so new ones are covered) is called with the program's own key instead of a session.
let h: Harness;
let program: ProgramFixture;
beforeAll(async () => {
  h = await createHarness();
});
// Fresh per test: an accepted regenerate-key replaces the key the next test would use.
beforeEach(async () => {
  await h.control.reset();
  program = await programWithRecords(h);
});
afterAll(() => h.close());

// Sign-out also works with no session at all (it only clears the cookie), so it has no credential to refuse.
const dashboardOps = operations.filter((op) => op.credential === 'dashboardSession' && !op.credentialOptional);

describe('dashboard routes refuse program keys', () => {
  it('the spec has dashboard operations to check', () => {
    expect(dashboardOps.length).toBeGreaterThanOrEqual(7);
  });

  for (const op of dashboardOps) {
    it(`${op.method} ${op.template}: 401 with the owner's program key, nothing changed`, async () => {
      const path = op.template.replace(/\{[^}]+\}/g, String(program.id));
      const before = await rowCounts(h.store);
      const res = await h.request(op.method, path, {
        key: program.key,
        ...(op.method === 'GET' ? {} : { json: { program_id: program.id, event_type: 'click' } }),
      });
      expect(res.status).toBe(401);
      expect(res.body.data).toBeNull();
      expect(await rowCounts(h.store)).toEqual(before);
      // The same request with a session of the owner is accepted: the refusal is about the credential.
      const { cookie } = await h.control.createDashboardSession(program.accountId);
      const accepted = await h.request(op.method, path, {
        headers: { cookie },
        ...(op.method === 'GET' ? {} : { json: { program_id: program.id, event_type: 'click' } }),
      });
      expect(accepted.status).not.toBe(401);
    });
  }
});
