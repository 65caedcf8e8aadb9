import { describe, expect, it } from 'vitest';
import { harnessPerFile } from './harness';
import { createWorld, txnId } from './tracking/world';

const t = harnessPerFile();

const readiness = (key: string) => t.h.request('GET', '/api/v1/programs/me/readiness', { key });

describe('GET /api/v1/programs/me/readiness', () => {
  it('walks the funnel: not_started, in_progress with the next step, then ready', async () => {
    const program = await t.h.control.createProgram({ allowed_origins: ['https://shop.example.com'] });
    const first = await readiness(program.api_token);
    expect(first.status).toBe(200);
    expect(first.body.success).toBeUndefined();
    expect(first.body).toMatchObject({
      program_id: program.id,
      ready: false,
      verdict: 'not_started',
      configuration: {
        attribution_window_days: 60,
        lead_auth: 'server_required',
        allowed_origins: ['https://shop.example.com'],
        commission_type: 'percent',
        commission_rate: 10,
        active_links: 0,
        processor_connected: false,
        key_rotation: null,
      },
      seen: { click: { seen: false, count: 0, last_seen_at: null } },
      test_events: { click: 0, lead: 0, sale: 0 },
      next_step: { code: 'create_link' },
    });
    expect(first.headers['x-request-id']).toBeTruthy();
    expect(first.headers['x-ratelimit-limit']).toBe('30');

    const w = await createWorld(t.h);
    expect((await readiness(w.key)).body.next_step.code).toBe('install_tracker');
    // Test events never make a program ready.
    const testClick = await w.clickId({ additional_data: { test_mode: true } });
    await w.lead({ click_id: testClick, customer_key: 't', additional_data: { test_mode: true } });
    await w.sale({ amount_cents: 100, customer_key: 't', additional_data: { test_mode: true } });
    const tested = (await readiness(w.key)).body;
    expect(tested).toMatchObject({
      verdict: 'not_started',
      test_events: { click: 1, lead: 1, sale: 1 },
      next_step: { code: 'install_tracker' },
    });

    const clickId = await w.clickId();
    const afterClick = (await readiness(w.key)).body;
    expect(afterClick).toMatchObject({
      verdict: 'in_progress',
      seen: { click: { seen: true, count: 1 } },
      next_step: { code: 'track_lead' },
    });
    expect(Date.parse(afterClick.seen.click.last_seen_at)).toBeGreaterThan(0);
    await w.lead({ click_id: clickId, customer_key: 'real' });
    expect((await readiness(w.key)).body.next_step.code).toBe('track_sale');
    await w.sale({ transaction_id: txnId(), amount_cents: 100, customer_key: 'real' });
    const ready = (await readiness(w.key)).body;
    expect(ready).toMatchObject({
      ready: true,
      verdict: 'ready',
      next_step: null,
      seen: { sale: { seen: true, count: 1 }, processor_sale: { seen: false } },
    });
  });

  it('names the key rotation first while the key is marked', async () => {
    const w = await createWorld(t.h);
    await t.h.control.markKeyRotation(w.programId, { rotate_by: '2099-01-01T00:00:00Z' });
    const body = (await readiness(w.key)).body;
    expect(body.configuration.key_rotation).toEqual({ rotate_by: '2099-01-01T00:00:00.000Z' });
    expect(body.next_step.code).toBe('rotate_key');
    expect(body.warnings).toHaveLength(1);
  });

  it('answers 500 in the typed envelope with retry_after_seconds 10 when the verdict cannot be computed', async () => {
    const w = await createWorld(t.h);
    await t.h.control.armFault({ point: 'readiness' });
    const res = await readiness(w.key);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: { code: 'internal_error', message: 'Failed to compute readiness. Retry shortly.', retry_after_seconds: 10 },
    });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect((await readiness(w.key)).status).toBe(200);
  });
});
