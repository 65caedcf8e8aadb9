import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { Svc, type SvcLogEvent } from '@svc/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Billing, type User } from '../src/billing';

// One reference server for the file: in-process, on an ephemeral port and an in-memory database.
let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
});
afterAll(async () => server?.close());

interface World {
  programId: number;
  svc: Svc;
  billing: Billing;
  /** Every response status the SDK saw, in order (its `logger` option). */
  statuses: number[];
  /** What the tracker does when a visitor lands through the partner's link: record the click. */
  click(): Promise<string>;
}

// Every test gets its own program, partner and link through the control API, so tests never see each other's records.
let world: World;
beforeEach(async () => {
  const program = await server.control.createProgram({ attribution_window_days: 30 });
  const partner = await server.control.createPartner({ program_id: program.id, name: 'Ada’s blog' });
  const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
  // contractFetch checks every response against spec/openapi.yaml: your code is tested against the contract.
  const statuses: number[] = [];
  const logger = (event: SvcLogEvent) => event.type === 'response' && statuses.push(event.status);
  const svc = new Svc({ apiKey: program.api_token, baseUrl: server.url, fetch: contractFetch, backoffMs: 10, logger });
  world = {
    statuses,
    programId: program.id,
    svc,
    billing: new Billing(svc),
    click: async () => (await svc.track.click({ affiliate_url: `https://shop.example.com/pricing?aff=${link.short_link}` })).click_id,
  };
});

const user = (id: string): User => ({ id, email: `${id}@example.com` });

describe('Billing against the svc reference server', () => {
  it('records the referred signup and one sale with its commission, however often the payment webhook arrives', async () => {
    const ada = user('user_ada');
    const clickId = await world.click();
    await world.billing.onSignup(ada, clickId);

    const payment = { id: 'pi_3Q0001', amountCents: 4900, currency: 'USD' as const };
    const first = await world.billing.onPaymentSucceeded(ada, payment);
    const redelivered = await world.billing.onPaymentSucceeded(ada, payment);

    expect(redelivered).toBe(first);
    const records = await server.control.records(world.programId);
    expect(records.customers).toMatchObject([{ customer_key: 'user_ada', click_id: clickId, status: 'converted', provisional: false }]);
    expect(records.sales).toMatchObject([
      { id: first, processor_event_id: 'pi_3Q0001', amount_cents: 4900, currency: 'USD', is_test: false },
    ]);
    expect(records.commissions).toHaveLength(1);
  });

  it('records an unattributed lead for a visitor who never clicked a referral link, and no sale or commission', async () => {
    const grace = user('user_grace');
    await world.billing.onSignup(grace, null);
    expect(await world.billing.onPaymentSucceeded(grace, { id: 'pi_3Q0002', amountCents: 1900, currency: 'EUR' })).toBeNull();

    expect(await server.control.records(world.programId)).toMatchObject({
      customers: [{ customer_key: 'user_grace', click_id: null, partner_id: null, status: 'lead' }],
      sales: [],
      commissions: [],
    });
  });

  it('does not attribute a signup that came after the attribution window (the clock is the server’s)', async () => {
    const lin = user('user_lin');
    const clickId = await world.click();
    await server.control.clock({ advance_seconds: 31 * 86_400 });
    try {
      await world.billing.onSignup(lin, clickId);
      expect(await world.billing.onPaymentSucceeded(lin, { id: 'pi_3Q0003', amountCents: 900, currency: 'USD' })).toBeNull();
    } finally {
      await server.control.clock({ now: new Date().toISOString() }); // back to real time for the next test
    }
    expect((await server.control.records(world.programId)).sales).toEqual([]);
  });

  it('records one sale when svc fails once inside the sale endpoint (the SDK retries with the same transaction_id)', async () => {
    const ada = user('user_ada');
    await world.billing.onSignup(ada, await world.click());
    await server.control.armFault({ point: 'sale', times: 1 });

    world.statuses.length = 0;
    const saleId = await world.billing.onPaymentSucceeded(ada, { id: 'pi_3Q0004', amountCents: 2500, currency: 'USD' });

    expect(world.statuses).toEqual([500, 200]);
    expect((await server.control.records(world.programId)).sales).toMatchObject([{ id: saleId, processor_event_id: 'pi_3Q0004' }]);
  });
});
