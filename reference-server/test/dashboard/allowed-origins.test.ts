import { describe, expect, it } from 'vitest';
import type { Harness } from '../harness';
import { withSignedInOwner, type OwnedProgram } from './signed-in-owner';

// The dashboard's own checks ("Send test click", "Run verification", and `svc test`) with a restricted origin
// list: the server's own synthetic click passes the origin rule; browsers on other sites are still refused.
let h: Harness;
let program: OwnedProgram;
let cookie: string;
withSignedInOwner(
  { commission_type: 'percent', commission_rate: 10, allowed_origins: ['https://acme.example'] },
  (s) => ({ h, program, cookie } = s),
);

const post = (path: string, json: unknown) => h.request('POST', path, { json, headers: { cookie } });

describe('the dashboard checks with allowed_origins set', () => {
  it('"Send test click" records a test click', async () => {
    const res = await post('/api/tracking/test', { program_id: program.id, event_type: 'click' });
    expect(res.status).toBe(200);
    expect(res.body.data.events).toEqual([{ event_type: 'click', ok: true, click_id: expect.stringMatching(/\S/) }]);
    const landed = await post('/api/tracking/check-test-events', { program_id: program.id });
    expect(landed.body.data.click).toBe(true);
  });

  it('"Run verification" passes all three steps, and so does `svc test` (the same chain by key)', async () => {
    const res = await post(`/api/tracking/run-verification/${program.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.data.passed).toBe(true);
    expect(res.body.data.result.events.map((e: { ok: boolean }) => e.ok)).toEqual([true, true, true]);
    const cli = await h.request('POST', '/api/v1/cli/test-event', { key: program.api_token, json: { type: 'chain' } });
    expect(cli.status).toBe(200);
    expect(cli.body.data.events.every((e: { ok: boolean }) => e.ok)).toBe(true);
  });

  it('still refuses a browser on another site, and a click with no Origin, at the tracking route', async () => {
    const partner = await h.control.createPartner({ program_id: program.id, name: 'Pat' });
    await h.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: 'pat' });
    const click = (headers: Record<string, string>) =>
      h.request('POST', '/api/v1/track/click', { json: { affiliate_url: 'https://acme.example/?aff=pat' }, headers });
    const foreign = await click({ origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toMatch(/evil\.example/);
    expect((await click({})).status).toBe(403);
    expect((await click({ origin: 'https://acme.example' })).status).toBe(200);
    // A test-mode click from a browser through the fixture's link (made by a first test click) is a browser call
    // like any other: the rule applies to it too.
    await post('/api/tracking/test', { program_id: program.id, event_type: 'click' });
    const testClick = await h.request('POST', '/api/v1/track/click', {
      json: {
        affiliate_url: `https://acme.example/?aff=svc-test-${program.id}`,
        additional_data: { test_mode: true, program_id: program.id },
      },
      headers: { origin: 'https://evil.example' },
    });
    expect(testClick.status).toBe(403);
  });

  it('a step that fails says why, in the API', async () => {
    await post('/api/tracking/test', { program_id: program.id, event_type: 'click' });
    // The fixture's partner suspended: its link answers as a disabled one, so the chain stops at the click.
    await h.store.db
      .updateTable('partners')
      .set({ status: 'suspended' })
      .where('program_id', '=', program.id)
      .where('is_test', '=', 1)
      .execute();
    const res = await post(`/api/tracking/run-verification/${program.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.data.passed).toBe(false);
    expect(res.body.data.result.events).toEqual([{ event_type: 'click', ok: false, error: 'This referral link has been turned off.' }]);
  });
});
