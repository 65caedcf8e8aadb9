import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { nowSeconds, svcMetadata } from '../webhooks/setup';
import { checkoutSessionCompleted, deliver } from '../webhooks/stripe-events';
import { riskShop } from './support';

// A processor payment's customer email (Stripe's `customer_details.email`) is checked like a lead's: the partner
// paying themselves through their own link is a self-referral, held before the commission is created.
const t = harnessPerFile();

async function stripeShop() {
  const s = await riskShop(t.h);
  const account = `acct_${randomBytes(8).toString('hex')}`;
  const { webhook_secret } = await t.h.control.connectProcessor({ program_id: s.m.program.id, account });
  const pay = async (customerKey: string, email: string) => {
    const event = checkoutSessionCompleted({
      account,
      created: await nowSeconds(t.h),
      amountTotal: 4900,
      customerEmail: email,
      metadata: svcMetadata(s.m.program.id, undefined, customerKey),
    });
    const res = await deliver(t.h, webhook_secret, event);
    expect(res.status, res.text).toBe(200);
    expect(res.body.outcome).toBe('recorded');
    return res.body.sale_id as number;
  };
  const commissionOf = (saleId: number) =>
    t.h.store.db.selectFrom('commissions').selectAll().where('sale_id', '=', saleId).executeTakeFirstOrThrow();
  return { s, pay, commissionOf };
}

describe("the processor customer's email", () => {
  it('the partner paying with their own email through their link: a self-referral, the commission held, raised once', async () => {
    const { s, pay, commissionOf } = await stripeShop();
    const customer = await s.lead(undefined);
    const first = await pay(customer, 'JaneDoe@gmail.com');
    expect(await commissionOf(first)).toMatchObject({ status: 'held', hold_reason: 'risk' });
    const second = await pay(customer, 'JaneDoe@gmail.com');
    expect((await commissionOf(second)).status).toBe('held');
    const { data } = await s.events();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ kind: 'self_referral', partner_id: s.jane.id, subject: { type: 'customer', id: customer } });
  });

  it('another customer’s email changes nothing; a throwaway one is flagged and paid as usual', async () => {
    const { s, pay, commissionOf } = await stripeShop();
    expect((await commissionOf(await pay(await s.lead(undefined), 'someone@example.org'))).status).toBe('pending');
    expect((await commissionOf(await pay(await s.lead(undefined), 'x@mailinator.com'))).status).toBe('pending');
    expect((await s.events()).data.map((e) => e.kind)).toEqual(['disposable_email']);
  });
});
