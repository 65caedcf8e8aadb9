import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { catalogue } from '@svc/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Svc, SvcInternalServerError } from '../../src';

// The SDK's handling of each 500 of spec/rules.md "Message catalogue" against the real reference server, with faults armed through
// the test-control API. Every response is validated against the spec by contractFetch; the wrapper around it counts
// the attempts and keeps their bodies.
let server: ReferenceServer;
let programId: number;
let apiKey: string;
let shortLink: string;
let attempts: { path: string; body: string }[];

const countingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  attempts.push({ path: new URL(request.url).pathname, body: await request.clone().text() });
  return contractFetch(request);
};
const sent = (path: string) => attempts.filter((a) => a.path === path).map((a) => JSON.parse(a.body) as Record<string, unknown>);

/** A short backoff keeps the retries fast; the policy under test is the same. */
const newSvc = (options: { timeout?: number } = {}) =>
  new Svc({ baseUrl: server.url, apiKey, fetch: countingFetch, backoffMs: 5, ...options });

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  programId = program.id;
  apiKey = program.api_token;
  const partner = await server.control.createPartner({ program_id: programId });
  shortLink = (await server.control.createLink({ program_id: programId, partner_id: partner.id })).short_link;
});
afterAll(() => server.close());
beforeEach(() => {
  attempts = [];
});

/** A visitor who clicked a referral link and signed up as `customerKey`. */
async function customer(customerKey: string): Promise<void> {
  const svc = newSvc();
  const click = await svc.track.click({ affiliate_url: `https://shop.example.com/?aff=${shortLink}` });
  await svc.track.lead({ click_id: click.click_id, customer_key: customerKey });
  attempts = [];
}

describe('500 from the service', () => {
  it('`Lead tracking failed` is retried, and the retry records the lead', async () => {
    const click = await newSvc().track.click({ affiliate_url: `https://shop.example.com/?aff=${shortLink}` });
    attempts = [];
    await server.control.armFault({ point: 'lead' });
    const lead = await newSvc().track.lead({ click_id: click.click_id, customer_key: 'user_lead_500' });
    expect(lead).toMatchObject({ success: true, duplicate: false });
    expect(sent('/api/v1/track/lead')).toHaveLength(2);
    const records = await server.control.records(programId);
    expect(records.customers.filter((c) => c.customer_key === 'user_lead_500')).toMatchObject([{ status: 'lead' }]);
  });

  it('`Sale tracking failed` is retried with the same transaction_id and records exactly one sale', async () => {
    await customer('user_sale_500');
    await server.control.armFault({ point: 'sale' });
    const sale = await newSvc().track.sale({
      transaction_id: 'pi_sale_500',
      amount_cents: 4_900,
      currency: 'USD',
      customer_key: 'user_sale_500',
    });
    expect(sale).toMatchObject({ success: true, duplicate: false, transaction_id: 'pi_sale_500' });
    const bodies = sent('/api/v1/track/sale');
    expect(bodies).toHaveLength(2);
    expect(bodies.map((b) => b.transaction_id)).toEqual(['pi_sale_500', 'pi_sale_500']);
    const records = await server.control.records(programId);
    const stored = records.sales.filter((s) => s.processor_event_id === 'pi_sale_500');
    expect(stored).toHaveLength(1);
    expect(records.commissions.filter((c) => c.sale_id === stored[0]!.id)).toHaveLength(1);
  });

  it('`Failed to create commission` is not retried; a resend answers duplicate with the stored sale', async () => {
    await customer('user_commission_500');
    await server.control.armFault({ point: 'commission' });
    const body = {
      transaction_id: 'pi_commission_500',
      amount_cents: 2_500,
      currency: 'USD',
      customer_key: 'user_commission_500',
    } as const;
    const error = await newSvc()
      .track.sale(body)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcInternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', message: catalogue.commissionFailed.message, envelope: 'platform' });
    expect(sent('/api/v1/track/sale')).toHaveLength(1);

    // spec/rules.md "States and transitions": the sale is stored without a commission and its transaction id is consumed.
    const records = await server.control.records(programId);
    const stored = records.sales.filter((s) => s.processor_event_id === 'pi_commission_500');
    expect(stored).toHaveLength(1);
    expect(records.commissions.filter((c) => c.sale_id === stored[0]!.id)).toEqual([]);
    const again = await newSvc().track.sale(body);
    expect(again).toMatchObject({ success: true, duplicate: true, sale_id: stored[0]!.id });
    expect((await server.control.records(programId)).sales.filter((s) => s.processor_event_id === 'pi_commission_500')).toHaveLength(1);
  });

  it('`Click tracking failed` is not retried: a retry could record the click twice', async () => {
    await server.control.armFault({ point: 'click' });
    const before = (await server.control.records(programId)).clicks.length;
    const error = await newSvc()
      .track.click({ affiliate_url: `https://shop.example.com/?aff=${shortLink}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcInternalServerError);
    expect(error).toMatchObject({ status: 500, message: catalogue.clickFailed.message });
    expect(sent('/api/v1/track/click')).toHaveLength(1);
    expect((await server.control.records(programId)).clicks).toHaveLength(before);
  });

  it('readiness asks for 10 s (`retry_after_seconds`), not the SDK backoff: with a shorter deadline it surfaces at once', async () => {
    await server.control.armFault({ point: 'readiness' });
    const error = await newSvc({ timeout: 2_000 })
      .readiness()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcInternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', envelope: 'typed', retryAfter: 10 });
    expect(attempts.map((a) => a.path)).toEqual(['/api/v1/programs/me/readiness']);
  });
});
