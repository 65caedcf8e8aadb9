import { describe, expect, it } from 'vitest';
import { createWorld, platformError, trackingSuite } from './world';
import { readProgramMetrics } from '../../src/store/engine';

const t = trackingSuite();

const click = (json: unknown, headers: Record<string, string> = {}) => t.h.request('POST', '/api/v1/track/click', { json, headers });

describe('POST /api/v1/track/click', () => {
  it('records a click and the customer-to-partner relationship', async () => {
    const res = await t.w.click();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, click_id: expect.stringMatching(/^clk_/), cookie_window_days: 60 });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    const records = await t.w.records();
    expect(records.clicks).toEqual([{ click_id: res.body.click_id, partner_id: t.w.partnerId, is_test: false }]);
    expect(records.customers).toEqual([
      { customer_key: null, click_id: res.body.click_id, partner_id: t.w.partnerId, status: 'clicked', provisional: false, is_test: false },
    ]);
    const events = await t.h.store.db.selectFrom('events').selectAll().execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'click', click_id: res.body.click_id, is_test: 0 });
    const metrics = await readProgramMetrics(t.h.store.db, t.w.programId);
    expect(metrics).toMatchObject({ clicks: 1, test_clicks: 0 });
  });

  it('returns the program window as cookie_window_days', async () => {
    const short = await createWorld(t.h, { attribution_window_days: 7 });
    expect((await short.click()).body.cookie_window_days).toBe(7);
  });

  it('answers every validation message and records nothing', async () => {
    platformError(await click({}), 400, 'affiliate_url is required');
    platformError(await click({ affiliate_url: '' }), 400, 'affiliate_url is required');
    platformError(await click({ affiliate_url: 42 }), 400, 'affiliate_url is required');
    platformError(await click({ affiliate_url: 'shop.example.com/?aff=x' }), 400, 'Invalid affiliate_url');
    platformError(await click({ affiliate_url: '/pricing?aff=x' }), 400, 'Invalid affiliate_url');
    // Parseable as an absolute URL, so not `Invalid affiliate_url` whatever the scheme: the link decides.
    platformError(await click({ affiliate_url: 'app://shop/?aff=nobody' }), 400, 'Referral link not found');
    platformError(await click({ affiliate_url: 'https://shop.example.com/pricing' }), 400, 'No aff parameter found in affiliate_url');
    platformError(await click({ affiliate_url: 'https://shop.example.com/?aff=' }), 400, 'No aff parameter found in affiliate_url');
    platformError(await click({ affiliate_url: 'https://shop.example.com/?aff=nobody' }), 400, 'Referral link not found');
    await t.h.control.createLink({ program_id: t.w.programId, partner_id: null, short_link: 'no-partner' });
    platformError(await click({ affiliate_url: 'https://shop.example.com/?aff=no-partner' }), 400, 'Invalid referral link configuration');
    await t.h.control.createLink({ program_id: null, partner_id: t.w.partnerId, short_link: 'no-program' });
    platformError(await click({ affiliate_url: 'https://shop.example.com/?aff=no-program' }), 400, 'Invalid referral link configuration');
    platformError(
      await t.h.request('POST', '/api/v1/track/click', { raw: '{"affiliate_url":', contentType: 'application/json' }),
      400,
      'Request body is not valid JSON',
    );
    expect((await t.w.records()).clicks).toEqual([]);
  });

  it('refuses a turned-off link with 410 link_disabled, and works again once it is back on', async () => {
    await t.h.control.setLinkEnabled(t.w.shortLink, false);
    const res = await t.w.click();
    expect(res.status).toBe(410);
    expect(res.body).toEqual({
      success: false,
      message: 'This referral link has been turned off.',
      error: { code: 'link_disabled', message: 'This referral link has been turned off.', hint: expect.any(String) },
    });
    expect((await t.w.records()).clicks).toEqual([]);
    await t.h.control.setLinkEnabled(t.w.shortLink, true);
    expect((await t.w.click()).status).toBe(200);
  });

  it('keeps the first click: a later partner gets a click, the customer stays with the first', async () => {
    const first = await t.w.clickId();
    const partner2 = await t.h.control.createPartner({ program_id: t.w.programId, name: 'Bob' });
    await t.h.control.createLink({ partner_id: partner2.id, short_link: 'bob-link' });
    const second = await click({ affiliate_url: 'https://shop.example.com/?aff=bob-link', click_id: first });
    expect(second.status).toBe(200);
    expect(second.body.click_id).toBe(first);
    const records = await t.w.records();
    expect(records.clicks.map((c) => c.partner_id)).toEqual([t.w.partnerId, partner2.id]);
    expect(records.customers).toHaveLength(1);
    expect(records.customers[0]).toMatchObject({ click_id: first, partner_id: t.w.partnerId });
  });

  it('starts afresh when the first click is outside the window, or the click id is unknown', async () => {
    const first = await t.w.clickId();
    await t.h.control.clock({ advance_seconds: 61 * 86_400 });
    const later = await t.w.clickId({ click_id: first });
    expect(later).not.toBe(first);
    const unknown = await t.w.clickId({ click_id: 'clk_made_up' });
    expect(unknown).not.toBe('clk_made_up');
    expect((await t.w.records()).customers).toHaveLength(3);
  });

  it('accepts a text/plain body holding JSON (a CORS simple request)', async () => {
    const res = await t.h.request('POST', '/api/v1/track/click', {
      raw: JSON.stringify({ affiliate_url: `https://shop.example.com/?aff=${t.w.shortLink}` }),
      contentType: 'text/plain;charset=UTF-8',
    });
    expect(res.status).toBe(200);
  });

  it('records test clicks flagged is_test, outside the real metrics', async () => {
    const res = await t.w.click({ additional_data: { test_mode: true } });
    expect(res.status).toBe(200);
    const records = await t.w.records();
    expect(records.clicks[0]?.is_test).toBe(true);
    expect(records.customers[0]?.is_test).toBe(true);
    const metrics = await readProgramMetrics(t.h.store.db, t.w.programId);
    expect(metrics).toMatchObject({ clicks: 0, test_clicks: 1, last_click_at: null });
  });

  it('answers 403 in test mode only when a key and additional_data.program_id name different programs', async () => {
    const other = await createWorld(t.h);
    const mismatch = { additional_data: { test_mode: true, program_id: other.programId } };
    platformError(await t.w.click(mismatch, { authorization: `Bearer ${t.w.key}` }), 403, 'program_id does not match the API key');
    // Not in test mode, or without a key: not checked.
    expect((await t.w.click({ additional_data: { program_id: other.programId } }, { authorization: `Bearer ${t.w.key}` })).status).toBe(
      200,
    );
    expect((await t.w.click(mismatch)).status).toBe(200);
    expect(
      (await t.w.click({ additional_data: { test_mode: true, program_id: t.w.programId } }, { authorization: `Bearer ${t.w.key}` })).status,
    ).toBe(200);
    expect((await t.w.records()).clicks).toHaveLength(3);
  });

  it('answers 500 Click tracking failed when the click fails inside the service, recording nothing', async () => {
    await t.h.control.armFault({ point: 'click' });
    const res = await t.w.click();
    platformError(res, 500, 'Click tracking failed');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect((await t.w.records()).clicks).toEqual([]);
    expect((await t.w.click()).status).toBe(200);
  });

  it('has no /api/tracking alias', async () => {
    // Straight through inject: the path is (rightly) not in the spec, so the validating harness would refuse it.
    for (const kind of ['click', 'lead', 'sale', 'refund']) {
      const res = await t.h.app.inject({ method: 'POST', url: `/api/tracking/${kind}`, payload: {} });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Route not found');
    }
  });
});

describe('allowed origins (CORS)', () => {
  it('answers the preflight for any origin', async () => {
    for (const path of ['/api/v1/track/click', '/api/v1/track/lead']) {
      const res = await t.h.request('OPTIONS', path, {
        headers: {
          origin: 'https://anything.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('https://anything.example');
      expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
    }
  });

  it('echoes an allowed origin and refuses another with 403, recording nothing', async () => {
    const strict = await createWorld(t.h, { allowed_origins: ['https://shop.example.com'] });
    const ok = await strict.click({}, { origin: 'https://shop.example.com' });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    const refused = await strict.click({}, { origin: 'https://evil.example' });
    platformError(refused, 403, 'Origin https://evil.example is not allowed for this program');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect((await strict.records()).clicks).toHaveLength(1);
    // A program without a list allows any origin.
    const open = await t.w.click({}, { origin: 'https://elsewhere.example' });
    expect(open.status).toBe(200);
    expect(open.headers['access-control-allow-origin']).toBe('https://elsewhere.example');
  });
});
