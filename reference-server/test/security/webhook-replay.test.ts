import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { programWithRecords, rowCounts, type ProgramFixture } from './fixtures';

// Webhook signatures (spec/openapi.yaml processorWebhook): a delivery captured and replayed outside the
// 5-minute tolerance is refused and records nothing, even with its original, valid signature.
let h: Harness;
let program: ProgramFixture;
let secret: string;
const account = `acct_${randomBytes(6).toString('hex')}`;
beforeAll(async () => {
  h = await createHarness();
  program = await programWithRecords(h);
  secret = (await h.control.connectProcessor({ program_id: program.id, account })).webhook_secret;
});
afterAll(() => h.close());

function paidCheckout(nowSeconds: number) {
  const id = randomBytes(6).toString('hex');
  return JSON.stringify({
    id: `evt_${id}`,
    object: 'event',
    type: 'checkout.session.completed',
    account,
    created: nowSeconds,
    livemode: false,
    data: {
      object: {
        id: `cs_${id}`,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        amount_total: 2500,
        currency: 'usd',
        payment_intent: `pi_${id}`,
        metadata: { svc_customer_key: program.customerKey, program_id: String(program.id) },
      },
    },
  });
}

function sign(body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const deliver = (body: string, signature: string) =>
  h.request('POST', '/api/v1/webhooks/processor', {
    raw: body,
    contentType: 'application/json',
    headers: { 'stripe-signature': signature },
  });

describe('webhook signatures replayed outside the tolerance', () => {
  it('refuses a validly signed delivery replayed 6 minutes later, and one signed 6 minutes ahead', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const skew of [-360, 360]) {
      const body = paidCheckout(now);
      const before = await rowCounts(h.store);
      const res = await deliver(body, sign(body, now + skew));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Stripe-Signature timestamp is outside the 5-minute tolerance');
      expect(await rowCounts(h.store)).toEqual(before);
    }
  });

  it('accepts a delivery, then refuses the same bytes and signature once the clock has moved past the tolerance', async () => {
    const now = Math.floor(Date.now() / 1000);
    const body = paidCheckout(now);
    const signature = sign(body, now);
    const first = await deliver(body, signature);
    expect(first.status).toBe(200);
    expect(first.body.outcome).toBe('recorded');
    await h.control.clock({ advance_seconds: 301 });
    const before = await rowCounts(h.store);
    const replay = await deliver(body, signature);
    expect(replay.status).toBe(400);
    expect(replay.body.error.message).toBe('Stripe-Signature timestamp is outside the 5-minute tolerance');
    expect(await rowCounts(h.store)).toEqual(before);
  });

  it('refuses a replay whose body was altered under the original signature', async () => {
    const now = Math.floor(Date.now() / 1000) + 301;
    const body = paidCheckout(now);
    const signature = sign(body, now);
    const before = await rowCounts(h.store);
    const res = await deliver(body.replace('"amount_total":2500', '"amount_total":9999999'), signature);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid Stripe-Signature');
    expect(await rowCounts(h.store)).toEqual(before);
  });
});
