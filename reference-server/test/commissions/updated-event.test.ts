import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { sleep, startReceiver, waitFor, type Receiver } from '../webhooks-out/receiver';
import { lifecycleShop, type LifecycleShop } from './support';

// `commission.updated` (spec/openapi.yaml, webhooks): written to the outbox with the change, delivered by the
// server's loop to a real receiver that verifies it with the `standardwebhooks` package and checks it against the spec.
const t = harnessPerFile();
let r: Receiver;
beforeEach(async () => {
  r = await startReceiver();
});
afterEach(() => r.close());

async function subscribe(s: LifecycleShop) {
  const res = await s.call('POST', '/webhook-endpoints', { url: `${r.url}/hook`, events: ['commission.updated'] });
  expect(res.status, res.text).toBe(201);
  r.secret = res.body.data.secret;
}
const updates = async (count: number) => {
  const got = await waitFor(`${count} commission.updated`, () => r.received.length >= count && r.received);
  await sleep(600);
  expect(r.received).toHaveLength(count);
  for (const x of got) {
    expect(x.verifyError, x.body).toBeUndefined();
    expect(x.specErrors, x.body).toEqual([]);
  }
  return got.map((x) => x.event.data).sort((a, b) => a.commission_id - b.commission_id);
};

describe('commission.updated', () => {
  it('is sent for approve, decline and a refund inside the hold, with old and new status; repeats send nothing', async () => {
    const s = await lifecycleShop(t.h);
    await subscribe(s);
    await s.settings({ commission_hold_days: 30 });
    const a = await s.sell(10_000);
    const b = await s.sell(5_000);
    const c = await s.sell(2_500);
    await s.approve(a.id);
    await s.approve(a.id);
    await s.decline(b.id, 'duplicate order');
    await s.decline(b.id, 'duplicate order');
    await s.refund(c.transactionId);
    const events = await updates(3);
    const base = {
      program_id: s.m.program.id,
      partner_id: s.jane.id,
      kind: 'sale',
      currency: 'USD',
      is_test: false,
      due_at: expect.any(String),
    };
    expect(events).toEqual([
      { ...base, commission_id: a.id, sale_id: expect.any(Number), amount_cents: 2_000, old_status: 'pending', new_status: 'due' },
      { ...base, commission_id: b.id, sale_id: expect.any(Number), amount_cents: 1_000, old_status: 'pending', new_status: 'declined' },
      { ...base, commission_id: c.id, sale_id: expect.any(Number), amount_cents: 500, old_status: 'pending', new_status: 'reversed' },
    ]);
  });

  it('is sent for each held commission released by reactivating the partner (held → due)', async () => {
    const s = await lifecycleShop(t.h);
    await subscribe(s);
    // Customers who signed up through Jane's link before her suspension buy after it: their commissions are held.
    const customers: string[] = [];
    for (let i = 0; i < 2; i++) {
      const click = await t.h.request('POST', '/api/v1/track/click', {
        json: { affiliate_url: `https://shop.example/?aff=${s.links.jane}` },
      });
      const customerKey = `cust_release_${s.m.program.id}_${i}`;
      expect(
        (
          await t.h.request('POST', '/api/v1/track/lead', {
            key: s.key,
            json: { click_id: click.body.click_id, customer_key: customerKey },
          })
        ).status,
      ).toBe(200);
      customers.push(customerKey);
    }
    expect((await s.call('PATCH', `/partners/${s.jane.id}`, { status: 'suspended' })).status).toBe(200);
    const held: number[] = [];
    for (const [i, customerKey] of customers.entries()) {
      const sale = await t.h.request('POST', '/api/v1/track/sale', {
        key: s.key,
        json: { transaction_id: `txn_release_${s.m.program.id}_${i}`, amount_cents: 10_000, currency: 'USD', customer_key: customerKey },
      });
      held.push(sale.body.commission_id);
    }
    expect((await s.list('?status=held')).body.data).toHaveLength(2);
    expect((await s.call('PATCH', `/partners/${s.jane.id}`, { status: 'active' })).status).toBe(200);
    expect((await s.call('PATCH', `/partners/${s.jane.id}`, { status: 'active' })).status).toBe(200);
    const events = await updates(2);
    expect(events.map((e) => [e.commission_id, e.old_status, e.new_status])).toEqual(
      held.sort((a, b) => a - b).map((id) => [id, 'held', 'due']),
    );
  });

  it('two approvals, then two declines, at the same time: each change once, one event each', async () => {
    const s = await lifecycleShop(t.h);
    await subscribe(s);
    await s.settings({ commission_hold_days: 30 });
    const a = await s.sell(10_000);
    const approvals = await Promise.all([s.approve(a.id), s.approve(a.id)]);
    expect(approvals.map((x) => [x.status, x.body.data.status])).toEqual([
      [200, 'due'],
      [200, 'due'],
    ]);
    expect((await s.figures()).due_cents).toEqual({ USD: 2_000 });
    const declines = await Promise.all([s.decline(a.id), s.decline(a.id)]);
    expect(declines.map((x) => [x.status, x.body.data.status])).toEqual([
      [200, 'declined'],
      [200, 'declined'],
    ]);
    expect((await s.figures()).due_cents).toEqual({});
    const events = await updates(2);
    expect(events.map((e) => [e.old_status, e.new_status]).sort()).toEqual([
      ['due', 'declined'],
      ['pending', 'due'],
    ]);
  });
});
