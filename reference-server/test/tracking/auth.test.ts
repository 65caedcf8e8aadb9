import { describe, expect, it } from 'vitest';
import { platformError, trackingSuite, txnId } from './world';

const t = trackingSuite();

const saleBody = { transaction_id: 'ch_auth', amount_cents: 100, customer_key: 'k' };
const send = (path: string, authorization?: string, json: unknown = saleBody) =>
  t.h.request(path.endsWith('readiness') ? 'GET' : 'POST', path, {
    ...(path.endsWith('readiness') ? {} : { json }),
    headers: authorization === undefined ? {} : { authorization },
  });

describe('the three 401 texts', () => {
  it('sale: malformed, missing, invalid (platform envelope, code unauthorized)', async () => {
    const malformed = 'Missing or malformed Authorization header. Expected: Bearer <token>';
    for (const header of [undefined, `Token ${t.w.key}`, `bearer ${t.w.key}`]) {
      const res = await send('/api/v1/track/sale', header);
      platformError(res, 401, malformed, 'unauthorized');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    platformError(await send('/api/v1/track/sale', 'Bearer '), 401, 'Missing API token', 'unauthorized');
    platformError(await send('/api/v1/track/sale', 'Bearer svc_live_wrong'), 401, 'Invalid API token', 'unauthorized');
  });

  it('refund: an empty token answers Invalid API token', async () => {
    const body = { transaction_id: 'ch_x' };
    platformError(
      await send('/api/v1/track/refund', undefined, body),
      401,
      'Missing or malformed Authorization header. Expected: Bearer <token>',
      'unauthorized',
    );
    platformError(await send('/api/v1/track/refund', 'Bearer ', body), 401, 'Invalid API token', 'unauthorized');
    platformError(await send('/api/v1/track/refund', 'Bearer svc_live_wrong', body), 401, 'Invalid API token', 'unauthorized');
  });

  it('the key is checked before the body is read: no usable key is a 401 whatever the body', async () => {
    const bodies = [
      { raw: '{not json', contentType: 'application/json' },
      { raw: 'a=b', contentType: 'application/x-www-form-urlencoded' },
      { raw: JSON.stringify({ padding: 'x'.repeat(70_000) }), contentType: 'application/json' },
    ];
    for (const path of ['/api/v1/track/sale', '/api/v1/track/refund']) {
      for (const body of bodies) {
        const res = await t.h.request('POST', path, body);
        platformError(res, 401, 'Missing or malformed Authorization header. Expected: Bearer <token>', 'unauthorized');
        const wrong = await t.h.request('POST', path, { ...body, headers: { authorization: 'Bearer svc_live_wrong' } });
        platformError(wrong, 401, 'Invalid API token', 'unauthorized');
      }
    }
  });

  it('readiness: the typed envelope, code invalid_key, messages ending with a period', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'Missing or malformed Authorization header. Expected: Bearer <api_token>.'],
      ['Basic abc', 'Missing or malformed Authorization header. Expected: Bearer <api_token>.'],
      ['Bearer ', 'Missing API token.'],
      ['Bearer svc_live_wrong', 'Invalid API token.'],
    ];
    for (const [header, message] of cases) {
      const res = await send('/api/v1/programs/me/readiness', header);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'invalid_key', message } });
    }
  });
});

describe('key rotation', () => {
  const rotateBy = '2099-01-01T00:00:00.000Z';

  it('before the deadline: Deprecation, Sunset, Link and a top-level warnings array on every key route', async () => {
    const markedAt = '2030-01-01T00:00:00.000Z';
    await t.h.control.markKeyRotation(t.w.programId, { rotate_by: rotateBy, marked_at: markedAt });
    const clickId = await t.w.clickId();
    const responses = [
      await t.w.lead({ click_id: clickId, customer_key: 'rot' }),
      await t.w.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'rot' }),
      await t.h.request('GET', '/api/v1/programs/me/readiness', { key: t.w.key }),
    ];
    const sale = responses[1];
    responses.push(await t.w.refund({ transaction_id: sale?.body.transaction_id }));
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(res.headers.deprecation).toBe(`@${Date.parse(markedAt) / 1000}`);
      expect(res.headers.sunset).toBe(new Date(rotateBy).toUTCString());
      expect(String(res.headers.link)).toMatch(/^<http:\/\/127\.0\.0\.1:8787\/docs\/key-rotation>; rel="deprecation"$/);
      expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'api_key_rotation_required', rotate_by: rotateBy })]);
    }
    // Browser mode has no key: no notice.
    const browser = await t.w.lead({ click_id: await t.w.clickId() }, null);
    expect(browser.body.warnings).toBeUndefined();
  });

  it('after the deadline: 401 api_key_rotation_required (typed) on sale, refund, lead and readiness', async () => {
    await t.h.control.markKeyRotation(t.w.programId, { rotate_by: rotateBy });
    await t.h.control.clock({ now: '2099-01-01T00:00:01.000Z' });
    const clickId = await t.w.clickId();
    const responses = [
      await t.w.sale({ transaction_id: txnId(), amount_cents: 100, click_id: clickId }),
      await t.w.refund({ transaction_id: 'ch_any' }),
      await t.w.lead({ click_id: clickId }),
      await t.h.request('GET', '/api/v1/programs/me/readiness', { key: t.w.key }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: {
          code: 'api_key_rotation_required',
          message: expect.any(String),
          hint: expect.any(String),
          docs_url: 'http://127.0.0.1:8787/docs/key-rotation',
        },
      });
    }
    expect((await t.w.records()).customers[0]?.status).toBe('clicked');
  });

  it('a click sent with a marked key carries the notice, and after the deadline is refused and records nothing', async () => {
    await t.h.control.markKeyRotation(t.w.programId, { rotate_by: rotateBy });
    const before = await t.w.click({}, { authorization: `Bearer ${t.w.key}` });
    expect(before.status).toBe(200);
    expect(before.headers.sunset).toBe(new Date(rotateBy).toUTCString());
    expect(before.body.warnings).toEqual([expect.objectContaining({ code: 'api_key_rotation_required' })]);
    // Without the key the same click carries no notice: it is the key's, not the program's.
    expect((await t.w.click()).headers.sunset).toBeUndefined();

    await t.h.control.clock({ now: '2099-01-01T00:00:01.000Z' });
    const clicks = (await t.w.records()).clicks.length;
    const after = await t.w.click({}, { authorization: `Bearer ${t.w.key}` });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('api_key_rotation_required');
    expect((await t.w.records()).clicks).toHaveLength(clicks);
  });

  it('error answers to a marked key carry the notice headers too, without a warnings array', async () => {
    await t.h.control.markKeyRotation(t.w.programId, { rotate_by: rotateBy });
    const transaction = txnId();
    const clickId = await t.w.clickId();
    await t.w.lead({ click_id: clickId, customer_key: 'rot-err' });
    expect((await t.w.sale({ transaction_id: transaction, amount_cents: 100, customer_key: 'rot-err' })).status).toBe(200);
    const errors = [
      await t.w.sale({ transaction_id: transaction, amount_cents: 100, customer_key: 'rot-err' }),
      await t.w.refund({ transaction_id: 'ch_no_such_sale' }),
      await t.w.sale({ amount_cents: 100, customer_key: 'rot-err' }),
    ];
    expect(errors.map((res) => res.status)).toEqual([409, 404, 400]);
    for (const res of errors) {
      expect(res.headers.deprecation).toMatch(/^@\d+$/);
      expect(res.headers.sunset).toBe(new Date(rotateBy).toUTCString());
      expect(String(res.headers.link)).toMatch(/rel="deprecation"$/);
      expect(res.body.warnings).toBeUndefined();
    }
  });
});
