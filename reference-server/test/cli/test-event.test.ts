import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { expectCliFailure, startOfMinute } from './support';
import { readProgramMetrics } from '../../src/store/engine';

let h: Harness;
let program: { id: number; api_token: string };
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.control.reset();
  program = await h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
});

const testEvent = (json: unknown, key: string | undefined = program.api_token) =>
  h.request('POST', '/api/v1/cli/test-event', { json, ...(key === undefined ? {} : { key }) });

describe('POST /api/v1/cli/test-event, single mode', () => {
  it.each(['click', 'lead', 'sale'] as const)('%s creates one test-mode record and nothing real', async (type) => {
    const res = await testEvent({ event_type: type });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.body.data).toMatchObject({ mode: 'single', events: [{ event_type: type, ok: true }] });
    const events = await h.store.db.selectFrom('events').selectAll().where('program_id', '=', program.id).execute();
    expect(events).toMatchObject([{ type, is_test: 1 }]);
    const records = await h.control.records(program.id);
    for (const list of [records.clicks, records.customers, records.sales]) for (const r of list) expect(r.is_test).toBe(true);
    expect(records.commissions).toEqual([]);
    const metrics = await readProgramMetrics(h.store.db, program.id);
    expect([metrics.clicks, metrics.leads, metrics.sales]).toEqual([0, 0, 0]);
    if (type === 'click')
      expect(records.clicks).toEqual([{ click_id: res.body.data.events[0].click_id, partner_id: expect.any(Number), is_test: true }]);
    if (type === 'sale') expect(records.sales).toMatchObject([{ id: res.body.data.events[0].sale_id, is_test: true }]);
  });

  it('refuses an unknown event_type word for word and records nothing', async () => {
    for (const [body, shown] of [
      [{ event_type: 'purchase' }, 'purchase'],
      [{}, 'undefined'],
      [{ type: 'single' }, 'undefined'],
    ] as const) {
      const res = await testEvent(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        data: null,
        error: { status: 400, name: 'BadRequestError', message: `Invalid event_type: ${shown}. Valid: click, lead, sale`, details: {} },
      });
    }
    expect(await h.store.db.selectFrom('events').selectAll().execute()).toEqual([]);
  });

  it('answers the program-key 401s and a retired key', async () => {
    const none = await h.request('POST', '/api/v1/cli/test-event', { json: { event_type: 'click' } });
    expect(none.status).toBe(401);
    expect(none.body.error.message).toBe('Missing or malformed Authorization header. Expected: Bearer <token>');
    expect((await testEvent({ event_type: 'click' }, '')).body.error.message).toBe('Missing API token');
    expect((await testEvent({ event_type: 'click' }, 'svc_live_nope')).body.error.message).toBe(
      'Invalid API token. If the key was regenerated, use the new key from the dashboard program settings; a workspace owner can regenerate it there.',
    );
    await h.control.markKeyRotation(program.id, { rotate_by: new Date(Date.now() + 3_600_000).toISOString() });
    const warned = await testEvent({ event_type: 'click' });
    expect(warned.status).toBe(200);
    expect(warned.body.warnings[0].code).toBe('api_key_rotation_required');
    await h.control.clock({ advance_seconds: 3_601 });
    const retired = await testEvent({ event_type: 'click' });
    expect(retired.status).toBe(401);
    expect(retired.body.error.code).toBe('api_key_rotation_required');
    expect(retired.body.data).toBeUndefined();
  });

  it('answers a failure with the request id at the end of the message', async () => {
    await h.control.armFault({ point: 'cli' });
    expectCliFailure(await testEvent({ event_type: 'click' }), 'Failed to process test event');
  });
});

describe('POST /api/v1/cli/test-event, chain mode', () => {
  it('runs click → lead → sale as one test customer', async () => {
    const res = await testEvent({ type: 'chain' });
    expect(res.status).toBe(200);
    const { data } = res.body;
    expect(data.mode).toBe('chain');
    expect(data.chains_remaining).toBe(9);
    expect(data.events.map((e: { event_type: string; ok: boolean }) => [e.event_type, e.ok])).toEqual([
      ['click', true],
      ['lead', true],
      ['sale', true],
    ]);
    const [click, lead, sale] = data.events;
    expect(lead.click_id).toBe(click.click_id);
    expect(sale.customer_key).toBe(lead.customer_key);
    const records = await h.control.records(program.id);
    expect(records.customers).toMatchObject([
      { click_id: click.click_id, customer_key: lead.customer_key, status: 'converted', is_test: true },
    ]);
    expect(records.sales).toMatchObject([{ id: sale.sale_id, is_test: true }]);
    expect(records.commissions).toEqual([]);
  });

  it('is capped at 10 per program per hour, checked after the fixture is refreshed', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await testEvent({ type: 'chain' });
      expect(res.status).toBe(200);
      expect(res.body.data.chains_remaining).toBe(9 - i);
      await h.control.clock({ advance_seconds: 60 });
    }
    // The fixture link is turned off; the refused run still turns it back on (spec/rules.md "Rate-limit response").
    const link = await h.store.db.selectFrom('referral_links').selectAll().where('program_id', '=', program.id).executeTakeFirstOrThrow();
    await h.control.setLinkEnabled(link.short_link, false);

    const capped = await testEvent({ type: 'chain' });
    expect(capped.status).toBe(429);
    expect(capped.body).toEqual({
      error: {
        status: 429,
        code: 'rate_limited',
        message: 'Too many synthetic chains (max 10/program/hour).',
        retry_after_seconds: expect.any(Number),
      },
    });
    // The oldest run leaves the hour 50 minutes from now (the clock keeps ticking while the test runs).
    const retryAfter = capped.body.error.retry_after_seconds as number;
    expect(retryAfter).toBeGreaterThan(2_980);
    expect(retryAfter).toBeLessThanOrEqual(3_000);
    expect(capped.headers['retry-after']).toBe(String(retryAfter));
    const refreshed = await h.store.db.selectFrom('referral_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(refreshed.enabled).toBe(1);
    expect(await h.store.db.selectFrom('chain_runs').selectAll().execute()).toHaveLength(10);
    expect((await h.control.records(program.id)).sales).toHaveLength(10);

    // Another program has its own cap; single events are not capped.
    const other = await h.control.createProgram();
    expect((await testEvent({ type: 'chain' }, other.api_token)).status).toBe(200);
    expect((await testEvent({ event_type: 'click' })).status).toBe(200);

    // The oldest run leaves the hour: one more chain fits.
    await h.control.clock({ advance_seconds: 3_000 });
    const again = await testEvent({ type: 'chain' });
    expect(again.status).toBe(200);
    expect(again.body.data.chains_remaining).toBe(0);
  });

  it('answers a failure with the request id at the end of the message, and runs nothing', async () => {
    await h.control.armFault({ point: 'cli' });
    expectCliFailure(await testEvent({ type: 'chain' }), 'Failed to run synthetic chain');
    expect(await h.store.db.selectFrom('chain_runs').selectAll().execute()).toEqual([]);
    expect(await h.store.db.selectFrom('events').selectAll().execute()).toEqual([]);
  });

  it('counts against the /cli/* limit of 60 per minute per key', async () => {
    await startOfMinute(h);
    for (let i = 0; i < 60; i++) await testEvent({ event_type: 'nope' });
    const limited = await testEvent({ event_type: 'click' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe('Too many requests.');
    expect(await h.store.db.selectFrom('events').selectAll().execute()).toEqual([]);
  });
});
