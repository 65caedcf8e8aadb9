import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { createWorld, trackingSuite } from './world';

// Start each test at the beginning of a window, so it never straddles two.
const t = trackingSuite(async (h) => {
  const now = Date.parse((await h.control.clock({ advance_seconds: 0 })).now);
  await h.control.clock({ now: new Date(Math.ceil(now / 60_000) * 60_000 + 1000).toISOString() });
});

function expectRateLimited(res: Awaited<ReturnType<Harness['request']>>, limit: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    error: { status: 429, code: 'rate_limited', message: 'Too many requests.', retry_after_seconds: expect.any(Number) },
  });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 120);
}

describe('spec/rules.md "Limits"', () => {
  it('click: 60 per minute per IP; the 61st is refused and records nothing; the next window is open again', async () => {
    for (let i = 0; i < 60; i++) {
      const res = await t.w.click();
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(59 - i));
    }
    expectRateLimited(await t.w.click(), 60);
    expect((await t.w.records()).clicks).toHaveLength(60);
    await t.h.control.clock({ advance_seconds: 60 });
    expect((await t.w.click()).status).toBe(200);
  });

  it('lead: 30 per minute per IP', async () => {
    for (let i = 0; i < 30; i++) expect((await t.w.lead({})).status).toBe(400);
    expectRateLimited(await t.w.lead({ customer_key: 'late' }), 30);
    expect((await t.w.records()).customers).toEqual([]);
  });

  it('sale and refund: 120 combined per API key; another key has its own bucket', async () => {
    for (let i = 0; i < 60; i++) expect((await t.w.sale({})).status).toBe(400);
    for (let i = 0; i < 60; i++) expect((await t.w.refund({})).status).toBe(400);
    expectRateLimited(await t.w.sale({ transaction_id: 'ch_late', amount_cents: 100 }), 120);
    expectRateLimited(await t.w.refund({ transaction_id: 'ch_late' }), 120);
    const other = await createWorld(t.h);
    expect((await other.sale({})).status).toBe(400);
  });

  it('sale and refund without a key fall back to the client IP', async () => {
    for (let i = 0; i < 60; i++) expect((await t.h.request('POST', '/api/v1/track/sale', { json: {} })).status).toBe(401);
    for (let i = 0; i < 60; i++) expect((await t.h.request('POST', '/api/v1/track/refund', { json: {} })).status).toBe(401);
    expectRateLimited(await t.h.request('POST', '/api/v1/track/sale', { json: {} }), 120);
    // The key's own bucket is untouched.
    expect((await t.w.sale({})).status).toBe(400);
  });

  it('every answer of these routes carries the headers (Reset = the window end in Unix seconds), Retry-After only on 429', async () => {
    const now = Date.parse((await t.h.control.clock({ advance_seconds: 0 })).now);
    const windowEnd = String(Math.floor(now / 60_000) * 60 + 60);
    const other = await createWorld(t.h);
    const answers = [
      await t.w.click(),
      await t.w.click({ affiliate_url: 'not a url' }),
      await t.w.click({ additional_data: { test_mode: true, program_id: other.programId } }, { authorization: `Bearer ${t.w.key}` }),
      await t.w.lead({}),
      await t.w.sale({}, 'svc_live_wrong'),
      await t.w.sale({}),
      await t.w.refund({ transaction_id: 'ch_none' }),
      await t.h.request('GET', '/api/v1/programs/me/readiness', { key: t.w.key }),
    ];
    await t.h.control.setLinkEnabled(t.w.shortLink, false);
    answers.push(await t.w.click());
    // The readiness 500 carries retry_after_seconds in its body, yet no Retry-After header (429 only).
    await t.h.control.armFault({ point: 'readiness' });
    answers.push(await t.h.request('GET', '/api/v1/programs/me/readiness', { key: t.w.key }));
    expect(answers.map((res) => res.status)).toEqual([200, 400, 403, 400, 401, 400, 404, 200, 410, 500]);
    for (const res of answers) {
      const where = `${res.status} ${res.text}`;
      expect(res.headers['x-ratelimit-limit'], where).toMatch(/^\d+$/);
      expect(res.headers['x-ratelimit-remaining'], where).toMatch(/^\d+$/);
      expect(res.headers['x-ratelimit-reset'], where).toBe(windowEnd);
      expect(res.headers['retry-after'], where).toBeUndefined();
      expect(res.headers['x-request-id'], where).toBeTruthy();
    }
    const limited = await (async () => {
      for (let i = 0; i < 30; i++) await t.w.lead({});
      return t.w.lead({});
    })();
    expectRateLimited(limited, 30);
    expect(limited.headers['x-ratelimit-reset']).toBe(windowEnd);
    expect(limited.headers['x-request-id']).toBeTruthy();
  });

  it('readiness: 30 per minute per API key', async () => {
    for (let i = 0; i < 30; i++) expect((await t.h.request('GET', '/api/v1/programs/me/readiness', { key: t.w.key })).status).toBe(200);
    expectRateLimited(await t.h.request('GET', '/api/v1/programs/me/readiness', { key: t.w.key }), 30);
  });
});

describe('SVC_RATE_LIMITS=off (benchmarks only)', () => {
  it('sends no rate-limit headers and never refuses', async () => {
    const unlimited = await createHarness({ rateLimits: false });
    try {
      const world = await createWorld(unlimited);
      for (let i = 0; i < 65; i++) {
        const res = await world.click();
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await unlimited.close();
    }
  });
});
