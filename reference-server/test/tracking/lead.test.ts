import { describe, expect, it } from 'vitest';
import { createWorld, platformError, trackingSuite, txnId } from './world';
import { readProgramMetrics } from '../../src/store/engine';

const t = trackingSuite();

const metrics = (programId: number) => readProgramMetrics(t.h.store.db, programId);
const lead = (json: unknown, headers: Record<string, string> = {}) => t.h.request('POST', '/api/v1/track/lead', { json, headers });

describe('POST /api/v1/track/lead, server mode', () => {
  it('settles the lead of a click, stores the customer key and counts it', async () => {
    const clickId = await t.w.clickId();
    const res = await t.w.lead({ click_id: clickId, customer_key: 'user_1', email: 'a@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, attributed: true, partner_id: t.w.partnerId });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    expect((await t.w.records()).customers).toEqual([
      { customer_key: 'user_1', click_id: clickId, partner_id: t.w.partnerId, status: 'lead', provisional: false, is_test: false },
    ]);
    expect(await metrics(t.w.programId)).toMatchObject({ leads: 1, test_leads: 0 });
    const stored = await t.h.store.db.selectFrom('customers').select('email').executeTakeFirstOrThrow();
    expect(stored.email).toBe('a@example.com');
    const events = await t.h.store.db.selectFrom('events').selectAll().where('type', '=', 'lead').execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ customer_key: 'user_1', partner_id: t.w.partnerId, provisional: 0 });
  });

  it('answers each 400 of the catalogue and records nothing', async () => {
    platformError(await t.w.lead({}), 400, 'click_id or customer_key is required');
    platformError(await t.w.lead({ email: 'a@example.com' }), 400, 'click_id or customer_key is required');
    platformError(await t.w.lead({ click_id: 'clk_unknown' }), 400, 'Customer not found. Provide a valid click_id or customer_key.');
    platformError(
      await t.w.lead({ click_id: 'clk_unknown', customer_key: 'new_user' }),
      400,
      'Customer not found. Provide a valid click_id or customer_key.',
    );
    const other = await createWorld(t.h);
    const otherClick = await other.clickId();
    platformError(await t.w.lead({ click_id: otherClick }), 400, 'Customer does not belong to this program');
    expect((await t.w.records()).customers).toEqual([]);
    expect((await other.records()).customers[0]?.status).toBe('clicked');
  });

  it('refuses a second lead: Customer status cannot be updated to lead. Current status: <status>', async () => {
    const clickId = await t.w.clickId();
    expect((await t.w.lead({ click_id: clickId, customer_key: 'user_2' })).status).toBe(200);
    platformError(await t.w.lead({ customer_key: 'user_2' }), 400, 'Customer status cannot be updated to lead. Current status: lead');
    platformError(await t.w.lead({ click_id: clickId }), 400, 'Customer status cannot be updated to lead. Current status: lead');
    expect((await t.w.sale({ transaction_id: txnId(), amount_cents: 1000, customer_key: 'user_2' })).status).toBe(200);
    platformError(await t.w.lead({ customer_key: 'user_2' }), 400, 'Customer status cannot be updated to lead. Current status: converted');
    expect((await metrics(t.w.programId)).leads).toBe(1);
  });

  it('records an unattributed lead when the cookie was cleared (customer_key only)', async () => {
    const res = await t.w.lead({ customer_key: 'cookie_cleared' });
    expect(res.status).toBe(200);
    // Said in the answer, so the lost click is seen now rather than at the first sale.
    expect(res.body).toEqual({ success: true, attributed: false });
    expect((await t.w.records()).customers).toEqual([
      { customer_key: 'cookie_cleared', click_id: null, partner_id: null, status: 'lead', provisional: false, is_test: false },
    ]);
    expect((await metrics(t.w.programId)).leads).toBe(1);
  });

  it('answers 401 Invalid API token only for a token that matches no program', async () => {
    const clickId = await t.w.clickId();
    const res = await lead({ click_id: clickId }, { authorization: 'Bearer svc_live_not_a_key' });
    platformError(res, 401, 'Invalid API token');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect((await t.w.records()).customers[0]?.status).toBe('clicked');
  });

  it('answers 500 Lead tracking failed when the lead fails inside the service; a retry records it', async () => {
    const clickId = await t.w.clickId();
    await t.h.control.armFault({ point: 'lead' });
    platformError(await t.w.lead({ click_id: clickId, customer_key: 'user_3' }), 500, 'Lead tracking failed');
    expect((await t.w.records()).customers[0]?.status).toBe('clicked');
    expect((await t.w.lead({ click_id: clickId, customer_key: 'user_3' })).status).toBe(200);
  });
});

describe('POST /api/v1/track/lead, browser mode', () => {
  it('is provisional at a server_required program: key not stored, not counted; a server-mode lead settles it', async () => {
    const clickId = await t.w.clickId();
    const res = await t.w.lead({ click_id: clickId, customer_key: 'user_p' }, null);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, provisional: true, attributed: true, partner_id: t.w.partnerId });
    expect((await t.w.records()).customers).toEqual([
      { customer_key: null, click_id: clickId, partner_id: t.w.partnerId, status: 'provisional_lead', provisional: true, is_test: false },
    ]);
    expect((await metrics(t.w.programId)).leads).toBe(0);
    // A second browser-mode lead is refused: the customer already has a (provisional) lead.
    platformError(
      await t.w.lead({ click_id: clickId }, null),
      400,
      'Customer status cannot be updated to lead. Current status: provisional_lead',
    );

    const settled = await t.w.lead({ click_id: clickId, customer_key: 'user_p' });
    expect(settled.body).toEqual({ success: true, attributed: true, partner_id: t.w.partnerId });
    expect((await t.w.records()).customers[0]).toMatchObject({ customer_key: 'user_p', status: 'lead', provisional: false });
    expect((await metrics(t.w.programId)).leads).toBe(1);
  });

  it('treats an empty token after "Bearer " and a header that is not Bearer as browser mode, not 401', async () => {
    const a = await t.w.clickId();
    expect((await lead({ click_id: a }, { authorization: 'Bearer ' })).body).toMatchObject({ success: true, provisional: true });
    const b = await t.w.clickId();
    expect((await lead({ click_id: b }, { authorization: 'Basic dXNlcjpwYXNz' })).body).toMatchObject({ success: true, provisional: true });
  });

  it('settles at once at a browser_allowed program', async () => {
    const open = await createWorld(t.h, { lead_auth: 'browser_allowed' });
    const clickId = await open.clickId();
    const res = await open.lead({ click_id: clickId, customer_key: 'user_b' }, null);
    expect(res.body).toEqual({ success: true, attributed: true, partner_id: open.partnerId });
    expect((await open.records()).customers[0]).toMatchObject({ customer_key: 'user_b', status: 'lead', provisional: false });
    // Cleared cookie in browser mode: the program comes from additional_data.program_id.
    const cleared = await open.lead({ customer_key: 'user_c', additional_data: { program_id: open.programId } }, null);
    expect(cleared.body).toEqual({ success: true, attributed: false });
    expect((await open.records()).customers[1]).toMatchObject({ customer_key: 'user_c', partner_id: null, status: 'lead' });
  });

  it('answers a key-only browser-mode lead at a server_required program as provisional, storing no key', async () => {
    const res = await t.w.lead({ customer_key: 'unverified', additional_data: { program_id: t.w.programId } }, null);
    expect(res.body).toEqual({ success: true, provisional: true, attributed: false });
    expect((await t.w.records()).customers).toEqual([]);
    expect((await metrics(t.w.programId)).leads).toBe(0);
    const event = await t.h.store.db.selectFrom('events').selectAll().where('type', '=', 'lead').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ provisional: 1, customer_key: null });
  });

  it('answers Customer not found when nothing names a program or customer', async () => {
    platformError(await t.w.lead({ click_id: 'clk_nope' }, null), 400, 'Customer not found. Provide a valid click_id or customer_key.');
    platformError(await t.w.lead({ customer_key: 'who' }, null), 400, 'Customer not found. Provide a valid click_id or customer_key.');
  });

  it('enforces allowed origins in browser mode only', async () => {
    const strict = await createWorld(t.h, { allowed_origins: ['https://shop.example.com'] });
    const fromShop = { origin: 'https://shop.example.com' };
    const clickId = (await strict.click({}, fromShop)).body.click_id;
    const refused = await lead({ click_id: clickId }, { origin: 'https://evil.example' });
    platformError(refused, 403, 'Origin https://evil.example is not allowed for this program');
    expect((await strict.records()).customers[0]?.status).toBe('clicked');
    const allowed = await lead({ click_id: clickId }, { origin: 'https://shop.example.com' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    // Server mode (a key) is not a browser-mode call.
    const clickId2 = (await strict.click({}, fromShop)).body.click_id;
    const server = await t.h.request('POST', '/api/v1/track/lead', {
      json: { click_id: clickId2, customer_key: 'srv' },
      key: strict.key,
      headers: { origin: 'https://evil.example' },
    });
    expect(server.status).toBe(200);
  });
});

describe('POST /api/v1/track/lead, test mode', () => {
  it('flags records is_test, resolves among test records only, and does not count real leads', async () => {
    const testClick = await t.w.clickId({ additional_data: { test_mode: true } });
    const res = await t.w.lead({ click_id: testClick, customer_key: 'user_t', additional_data: { test_mode: true } });
    expect(res.status).toBe(200);
    expect((await t.w.records()).customers[0]).toMatchObject({ customer_key: 'user_t', is_test: true, status: 'lead' });
    expect(await metrics(t.w.programId)).toMatchObject({ leads: 0, test_leads: 1 });
    // A real click does not resolve for a test lead, and a test key never collides with a real one.
    const realClick = await t.w.clickId();
    platformError(
      await t.w.lead({ click_id: realClick, additional_data: { test_mode: true } }),
      400,
      'Customer not found. Provide a valid click_id or customer_key.',
    );
    expect((await t.w.lead({ click_id: realClick, customer_key: 'user_t' })).status).toBe(200);
  });

  it('answers 403 when the key and additional_data.program_id name different programs (test mode only)', async () => {
    const other = await createWorld(t.h);
    const clickId = await t.w.clickId({ additional_data: { test_mode: true } });
    platformError(
      await t.w.lead({ click_id: clickId, additional_data: { test_mode: true, program_id: other.programId } }),
      403,
      'program_id does not match the API key',
    );
    expect((await t.w.records()).customers[0]?.status).toBe('clicked');
    // A browser-mode test event with no key is not checked.
    const browser = await t.w.lead({ click_id: clickId, additional_data: { test_mode: true, program_id: other.programId } }, null);
    expect(browser.status).toBe(200);
  });
});
