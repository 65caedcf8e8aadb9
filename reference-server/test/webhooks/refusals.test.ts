import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { click, connectedProgram, nowSeconds, processorEventCount, serverLead, svcMetadata, type ConnectedProgram } from './setup';
import { checkoutSessionCompleted, deliver, signPayload } from './stripe-events';

describe('POST /api/v1/webhooks/processor: refused deliveries record nothing', () => {
  let h: Harness;
  let p: ConnectedProgram;
  let clickId: string;

  beforeEach(async () => {
    h = await createHarness();
    p = await connectedProgram(h);
    clickId = await click(h, p.shortLink);
    await serverLead(h, p.apiKey, clickId, 'user_refusals');
  });
  afterEach(() => h.close());

  const purchase = async (overrides: { account?: string; metadata?: Record<string, string> } = {}) =>
    checkoutSessionCompleted({
      account: overrides.account ?? p.account,
      created: await nowSeconds(h),
      metadata: overrides.metadata ?? svcMetadata(p.programId, clickId, 'user_refusals'),
    });

  async function expectRefused(res: { status: number; body: any }, message: string) {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } });
    const records = await h.control.records(p.programId);
    expect(records.sales).toEqual([]);
    expect(records.commissions).toEqual([]);
    expect(records.customers.map((c) => c.status)).toEqual(['lead']);
    expect(await processorEventCount(h)).toBe(0);
  }

  it('a missing Stripe-Signature header', async () => {
    await expectRefused(await deliver(h, p.secret, await purchase(), { signature: null }), 'Missing Stripe-Signature header');
  });

  it('a signature made with another secret', async () => {
    await expectRefused(await deliver(h, p.secret, await purchase(), { secret: 'whsec_not_this_server' }), 'Invalid Stripe-Signature');
  });

  it('a body changed after signing', async () => {
    const event = await purchase();
    const header = signPayload(JSON.stringify(event, null, 2), p.secret, event.created);
    const tampered = JSON.stringify({ ...event, data: { object: { ...event.data.object, amount_total: 1 } } }, null, 2);
    const res = await h.request('POST', '/api/v1/webhooks/processor', {
      raw: tampered,
      contentType: 'application/json',
      headers: { 'stripe-signature': header },
    });
    await expectRefused(res, 'Invalid Stripe-Signature');
  });

  it('a garbage header', async () => {
    await expectRefused(await deliver(h, p.secret, await purchase(), { signature: 't=abc,v1=nothex' }), 'Invalid Stripe-Signature');
  });

  it('a timestamp older than 5 minutes (a replay), even correctly signed', async () => {
    const event = await purchase();
    await expectRefused(
      await deliver(h, p.secret, event, { timestamp: event.created - 301 }),
      'Stripe-Signature timestamp is outside the 5-minute tolerance',
    );
  });

  it('a timestamp more than 5 minutes ahead of the server clock', async () => {
    const event = await purchase();
    await expectRefused(
      await deliver(h, p.secret, event, { timestamp: event.created + 301 }),
      'Stripe-Signature timestamp is outside the 5-minute tolerance',
    );
  });

  it('an account connected to no program', async () => {
    await expectRefused(
      await deliver(h, p.secret, await purchase({ account: 'acct_unknown' })),
      'No program is connected to this processor account',
    );
  });

  it('metadata.program_id naming another program than the connected account', async () => {
    const other = await h.control.createProgram({});
    await expectRefused(
      await deliver(h, p.secret, await purchase({ metadata: svcMetadata(other.id, clickId, 'user_refusals') })),
      'metadata.program_id does not match the program connected to this processor account',
    );
  });

  it('a signed body that is not a Stripe event', async () => {
    const created = await nowSeconds(h);
    await expectRefused(await deliver(h, p.secret, { created, hello: 'world' } as never), 'Request body is not a processor event');
  });

  it('a signed body that is not JSON', async () => {
    const payload = 'not json';
    const header = signPayload(payload, p.secret, await nowSeconds(h));
    const res = await h.request('POST', '/api/v1/webhooks/processor', {
      raw: payload,
      contentType: 'application/json',
      headers: { 'stripe-signature': header },
    });
    await expectRefused(res, 'Request body is not valid JSON');
  });

  it('a body over 64 KiB answers 413', async () => {
    const event = await purchase({ metadata: { ...svcMetadata(p.programId, clickId, 'user_refusals'), padding: 'x'.repeat(70_000) } });
    const res = await deliver(h, p.secret, event);
    expect(res.status).toBe(413);
    expect((await h.control.records(p.programId)).sales).toEqual([]);
  });

  it('a body that is not application/json answers 400 (an invalid request, spec/rules.md "Errors/Status codes")', async () => {
    const res = await h.request('POST', '/api/v1/webhooks/processor', {
      raw: 'a=b',
      contentType: 'application/x-www-form-urlencoded',
      headers: { 'stripe-signature': 't=1,v1=00' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'BadRequestError', message: 'Content-Type must be application/json' });
  });
});
