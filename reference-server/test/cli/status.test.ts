import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { expectCliFailure, startOfMinute } from './support';

let h: Harness;
let program: { id: number; api_token: string };
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.control.reset();
  program = await h.control.createProgram({ name: 'Acme', domain: 'acme.example', commission_type: 'percent', commission_rate: 10 });
});

const status = (key: string | undefined = program.api_token) => h.request('GET', '/api/v1/cli/status', key === undefined ? {} : { key });

describe('GET /api/v1/cli/status', () => {
  it('shows the program (key masked), real metrics and the readiness verdict, without X-Request-ID', async () => {
    const partner = await h.control.createPartner({ program_id: program.id, name: 'Pat' });
    await h.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: 'pat' });
    const click = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: 'https://acme.example/?aff=pat' } });
    await h.request('POST', '/api/v1/cli/test-event', { key: program.api_token, json: { event_type: 'sale' } });

    const res = await status();
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBeUndefined();
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    const { data } = res.body;
    expect(data.program).toMatchObject({ id: program.id, name: 'Acme', api_token: `svc_live_…${program.api_token.slice(-4)}` });
    expect(data.metrics).toEqual({ clicks: 1, leads: 0, sales: 0, revenue_cents: {}, commissions_cents: {} });
    expect(data.readiness).toMatchObject({ program_id: program.id, ready: false, verdict: 'in_progress', test_events: { sale: 1 } });
    expect(data.readiness.seen.click).toMatchObject({ seen: true, count: 1 });
    expect(click.status).toBe(200);
  });

  it('answers its 401s without X-Request-ID', async () => {
    const none = await h.request('GET', '/api/v1/cli/status');
    expect(none.status).toBe(401);
    expect(none.body.error.message).toBe('Missing or malformed Authorization header. Expected: Bearer <token>');
    expect(none.headers['x-request-id']).toBeUndefined();
    const empty = await status('');
    expect(empty.status).toBe(401);
    expect(empty.body.error.message).toBe('Missing API token');
    expect(empty.headers['x-request-id']).toBeUndefined();
    const invalid = await status('svc_live_nope');
    expect(invalid.body.error.message).toMatch(/^Invalid API token\. If the key was regenerated/);
    expect(invalid.headers['x-request-id']).toBeUndefined();
  });

  it('answers a key past its rotation deadline with 401 api_key_rotation_required (typed), without X-Request-ID', async () => {
    // spec/rules.md "Authentication" rule 5: after the deadline every request with the key is refused; spec/rules.md "Request ids": this route's
    // 401 carries no X-Request-ID.
    await h.control.markKeyRotation(program.id, { rotate_by: '2099-01-01T00:00:00Z' });
    await h.control.clock({ now: '2099-01-01T00:00:01.000Z' });
    const retired = await status();
    expect(retired.status).toBe(401);
    expect(retired.body).toEqual({
      error: {
        code: 'api_key_rotation_required',
        message: expect.any(String),
        hint: expect.any(String),
        docs_url: 'http://127.0.0.1:8787/docs/key-rotation',
      },
    });
    expect(retired.headers['x-request-id']).toBeUndefined();
  });

  it('answers its 429 without X-Request-ID', async () => {
    await startOfMinute(h);
    for (let i = 0; i < 60; i++) await status();
    const limited = await status();
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited.headers['x-request-id']).toBeUndefined();
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('answers a failure with the request id in the header, the message and details', async () => {
    await h.control.armFault({ point: 'cli' });
    expectCliFailure(await status(), 'Failed to get status');
  });
});
