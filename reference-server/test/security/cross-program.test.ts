import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { programWithRecords, rowCounts, type ProgramFixture } from './fixtures';

// spec/rules.md "Authentication" rule 3: a key reaches its own program only. Every key-authenticated route is called with
// program A's key and program B's resources: refused or not found, nothing of B's leaked, nothing changed.
let h: Harness;
let a: ProgramFixture;
let b: ProgramFixture;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control.reset();
  a = await programWithRecords(h);
  b = await programWithRecords(h);
});

/** What a response must never show program A: B's secrets and B's records it did not name itself. */
function expectNoLeak(text: string, sent: string) {
  for (const secret of [b.key, b.key.slice(-20)]) expect(text).not.toContain(secret);
  for (const value of [b.customerKey, b.clickId, b.transactionId, b.shortLink]) {
    if (!sent.includes(value)) expect(text).not.toContain(value);
  }
  if (b.amountCents !== a.amountCents) expect(text).not.toContain(String(b.amountCents));
}

/**
 * B's records never change. Unless `ownRecordAllowed`, nothing changes at all; with it, whatever the request
 * records lands in A and is tied to none of B's partners.
 */
async function expectUnchanged<T>(action: () => Promise<T>, ownRecordAllowed = false): Promise<T> {
  const before = { rows: await rowCounts(h.store), b: await h.control.records(b.id), a: await h.control.records(a.id) };
  const result = await action();
  expect(await h.control.records(b.id)).toEqual(before.b);
  if (!ownRecordAllowed) {
    expect(await rowCounts(h.store)).toEqual(before.rows);
    expect(await h.control.records(a.id)).toEqual(before.a);
  } else {
    const bPartners = new Set(before.b.clicks.map((c) => c.partner_id));
    const after = await h.control.records(a.id);
    for (const customer of after.customers) expect(bPartners.has(customer.partner_id as number)).toBe(false);
  }
  return result;
}

interface Case {
  name: string;
  method: string;
  path: string;
  body: () => Record<string, unknown>;
  expected: number[];
  message?: string;
  /**
   * Customer keys are per program (spec/rules.md "Resources", Lead record), so B's key names nobody in A: a test sale or a
   * server-mode lead with it records in A (the cleared-cookie rule: an unattributed lead) — never in B.
   */
  ownRecordAllowed?: boolean;
}

const cases: Case[] = [
  {
    name: 'sale naming B’s customer',
    method: 'POST',
    path: '/api/v1/track/sale',
    body: () => ({ transaction_id: 'x-sale-1', amount_cents: 100, customer_key: b.customerKey }),
    expected: [400],
  },
  {
    name: 'sale naming B’s click',
    method: 'POST',
    path: '/api/v1/track/sale',
    body: () => ({ transaction_id: 'x-sale-2', amount_cents: 100, click_id: b.clickId }),
    expected: [400],
  },
  {
    name: 'test sale naming B as program',
    method: 'POST',
    path: '/api/v1/track/sale',
    body: () => ({
      transaction_id: 'x-sale-3',
      amount_cents: 100,
      customer_key: b.customerKey,
      additional_data: { test_mode: true, program_id: b.id },
    }),
    expected: [200, 400, 403],
    ownRecordAllowed: true,
  },
  {
    name: 'refund of B’s sale',
    method: 'POST',
    path: '/api/v1/track/refund',
    body: () => ({ transaction_id: b.transactionId }),
    expected: [404],
    message: 'Sale not found for transaction_id',
  },
  {
    name: 'server-mode lead for B’s customer',
    method: 'POST',
    path: '/api/v1/track/lead',
    body: () => ({ customer_key: b.customerKey }),
    expected: [200, 400],
    ownRecordAllowed: true,
  },
  {
    name: 'server-mode lead for B’s click',
    method: 'POST',
    path: '/api/v1/track/lead',
    body: () => ({ click_id: b.clickId, customer_key: 'new-in-a' }),
    expected: [400],
  },
  {
    name: 'test lead naming B as program',
    method: 'POST',
    path: '/api/v1/track/lead',
    body: () => ({ click_id: b.clickId, additional_data: { test_mode: true, program_id: b.id } }),
    expected: [403],
    message: 'program_id does not match the API key',
  },
  {
    name: 'test click naming B as program',
    method: 'POST',
    path: '/api/v1/track/click',
    body: () => ({ affiliate_url: `https://shop.example.com/?aff=${b.shortLink}`, additional_data: { test_mode: true, program_id: b.id } }),
    expected: [403],
    message: 'program_id does not match the API key',
  },
];

describe("program A's key against program B's resources", () => {
  for (const c of cases) {
    it(`${c.name}: ${c.ownRecordAllowed ? 'nothing of B touched or leaked' : 'refused, nothing leaked, nothing changed'}`, async () => {
      const body = c.body();
      const res = await expectUnchanged(() => h.request(c.method, c.path, { json: body, key: a.key }), c.ownRecordAllowed);
      expect(c.expected).toContain(res.status);
      if (c.message) expect(res.body.error.message).toBe(c.message);
      expectNoLeak(res.text, JSON.stringify(body));
    });
  }

  it('a sale reusing B’s transaction_id is a 409 (global scope, spec/rules.md "Errors" 409) that changes nothing and shows nothing else of B', async () => {
    const body = { transaction_id: b.transactionId, amount_cents: 100, customer_key: a.customerKey };
    const res = await expectUnchanged(() => h.request('POST', '/api/v1/track/sale', { json: body, key: a.key }));
    expect(res.status).toBe(409);
    // Nothing of B, not even its sale id (spec/openapi.yaml, trackSale 409 Decision).
    expect(res.body.error.details).toEqual({});
    expectNoLeak(res.text, JSON.stringify(body));
  });

  it('readiness answers for the key’s own program only', async () => {
    const res = await expectUnchanged(() => h.request('GET', '/api/v1/programs/me/readiness', { key: a.key }));
    expect(res.status).toBe(200);
    expectNoLeak(res.text, '');
    expect(res.text).not.toMatch(new RegExp(`"program_id":${b.id}\\b`));
  });

  it('cli/status answers for the key’s own program only', async () => {
    const res = await expectUnchanged(() => h.request('GET', '/api/v1/cli/status', { key: a.key }));
    expect(res.status).toBe(200);
    expectNoLeak(res.text, '');
  });

  it('cli/test-event writes to the key’s own program only', async () => {
    const beforeB = await h.control.records(b.id);
    const res = await h.request('POST', '/api/v1/cli/test-event', { json: { event_type: 'click' }, key: a.key });
    expect(res.status).toBe(200);
    expectNoLeak(res.text, '');
    expect(await h.control.records(b.id)).toEqual(beforeB);
  });

  it('B’s resources stay untouched after the whole matrix', async () => {
    const before = await h.control.records(b.id);
    for (const c of cases) await h.request(c.method, c.path, { json: c.body(), key: a.key });
    expect(await h.control.records(b.id)).toEqual(before);
    expect(before.sales.map((s) => s.refunded)).toEqual([false]);
  });
});
