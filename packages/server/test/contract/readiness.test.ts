import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { catalogue } from '@svc/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc, SvcUnauthorizedError } from '../../src';

// svc.readiness(), svc.cli.status() and svc.cli.testEvent() against the real reference server; every response is
// validated against the spec by contractFetch.
let server: ReferenceServer;
let programId: number;
let svc: Svc;
let shortLink: string;

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  const program = await server.control.createProgram({ commission_type: 'fixed', commission_rate: 5 });
  programId = program.id;
  const partner = await server.control.createPartner({ program_id: programId });
  shortLink = (await server.control.createLink({ program_id: programId, partner_id: partner.id })).short_link;
  svc = new Svc({ baseUrl: server.url, apiKey: program.api_token, fetch: contractFetch });
});
afterAll(() => server.close());

describe('readiness and program health', () => {
  it('moves from not_started to ready as real events arrive; test events do not count', async () => {
    const before = await svc.readiness();
    expect(before).toMatchObject({ program_id: programId, ready: false, verdict: 'not_started' });
    expect(before.next_step).toMatchObject({ code: 'install_tracker' });
    expect(before.configuration).toMatchObject({ commission_type: 'fixed', active_links: 1, processor_connected: false });

    const chain = await svc.cli.testEvent({ type: 'chain' });
    expect(chain.data.mode).toBe('chain');
    expect(chain.data.events.map((e) => [e.event_type, e.ok])).toEqual([
      ['click', true],
      ['lead', true],
      ['sale', true],
    ]);
    expect((await svc.readiness()).verdict).toBe('not_started');

    const click = await svc.track.click({ affiliate_url: `https://shop.example.com/?aff=${shortLink}` });
    await svc.track.lead({ click_id: click.click_id, customer_key: 'ready_1' });
    expect((await svc.readiness()).verdict).toBe('in_progress');
    await svc.track.sale({ transaction_id: 'pi_ready_1', amount_cents: 2_000, currency: 'USD', customer_key: 'ready_1' });

    const after = await svc.readiness();
    expect(after).toMatchObject({ ready: true, verdict: 'ready', next_step: null });
    expect(after.requestId).toMatch(/\S/);
  });

  it('cli.status() carries the program (key masked), its metrics and the same verdict', async () => {
    const status = await svc.cli.status();
    expect(status.data.program.id).toBe(programId);
    expect(status.data.program.api_token).toMatch(/^svc_live_….{4}$/);
    expect(status.data.metrics).toMatchObject({ clicks: 1, leads: 1, sales: 1, revenue_cents: { USD: 2_000 } });
    expect(status.data.readiness.verdict).toBe('ready');
  });

  it('a wrong key is SvcUnauthorizedError with the readiness route’s own message', async () => {
    const wrong = new Svc({ baseUrl: server.url, apiKey: 'svc_live_not-a-key', fetch: contractFetch });
    const error = await wrong.readiness().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcUnauthorizedError);
    expect(error).toMatchObject({ status: 401, message: catalogue.readinessInvalidToken.message });
  });
});
