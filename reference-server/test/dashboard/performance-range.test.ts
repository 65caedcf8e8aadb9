import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';

let h: Harness;
let program: { id: number; api_token: string; account_id: number };
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.control.reset();
  await h.control.clock({ now: '2026-03-10T12:00:00Z' });
  program = await h.control.createProgram({ name: 'Acme', domain: 'acme.example', commission_type: 'percent', commission_rate: 10 });
});

/** A report as the dashboard asks for it, with a session made now (the test clock moves past a week). */
async function report(query: string) {
  const { cookie } = await h.control.createDashboardSession(program.account_id);
  return h.request('GET', `/api/tracking/performance/${program.id}?${query}`, { headers: { cookie } });
}
const withKey = (path: string, json: unknown) => h.request('POST', path, { key: program.api_token, json });

async function click(shortLink: string): Promise<string> {
  const res = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://acme.example/?aff=${shortLink}` } });
  return res.body.click_id as string;
}

/** On 2026-03-10: 3 clicks; 2 of them lead; one buys twice; one buys and is refunded; plus an unattributed server lead. */
async function mixedDay() {
  const partner = await h.control.createPartner({ program_id: program.id, name: 'Pat' });
  await h.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: 'pat' });
  const [first, second] = [await click('pat'), await click('pat')];
  await click('pat');
  await withKey('/api/v1/track/lead', { click_id: first, customer_key: 'cust_1' });
  await withKey('/api/v1/track/lead', { click_id: second, customer_key: 'cust_2' });
  await withKey('/api/v1/track/lead', { customer_key: 'cust_9' });
  for (const [transaction_id, customer_key] of [
    ['txn_1', 'cust_1'],
    ['txn_2', 'cust_1'],
    ['txn_3', 'cust_2'],
  ])
    expect((await withKey('/api/v1/track/sale', { transaction_id, amount_cents: 1_000, customer_key })).status).toBe(200);
  expect((await withKey('/api/v1/track/refund', { transaction_id: 'txn_3' })).status).toBe(200);
  return partner;
}

const rates = (...values: (number | null)[]) => ({ click_to_lead: values[0], lead_to_sale: values[1], click_to_sale: values[2] });

describe('GET /api/tracking/performance/:programId with a date range', () => {
  it('counts each customer once per stage: repeat and refunded sales and unattributed leads keep every rate at most 1', async () => {
    const partner = await mixedDay();
    await h.control.clock({ advance_seconds: 10 * 86_400 });

    const res = await report('from=2026-03-10&to=2026-03-10');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ from: '2026-03-10', to: '2026-03-10' });
    // Events as they happened: three leads and three sales against three clicks (counted as events, the partner's
    // sales would be 150 % of its leads).
    expect(data.totals).toMatchObject({ clicks: 3, leads: 3, sales: 3 });
    // Unique customers of the day's clicks: two leads, one buyer (the refunded one does not count).
    expect(data.conversion_rates).toEqual(rates(2 / 3, 1 / 2, 1 / 3));
    expect(data.by_day).toEqual([expect.objectContaining({ date: '2026-03-10', clicks: 3, leads: 3, sales: 3 })]);
    expect(data.by_partner).toEqual([
      expect.objectContaining({
        partner_id: partner.id,
        partner_name: 'Pat',
        clicks: 3,
        leads: 2,
        sales: 3,
        conversion_rates: rates(2 / 3, 1 / 2, 1 / 3),
      }),
    ]);
    const allRates: Record<string, number>[] = [
      data.conversion_rates,
      ...data.by_partner.map((p: { conversion_rates: object }) => p.conversion_rates),
    ];
    for (const value of allRates.flatMap((r) => Object.values(r))) expect(value).toBeLessThanOrEqual(1);
    expect(data.previous).toEqual({
      from: '2026-03-09',
      to: '2026-03-09',
      totals: { clicks: 0, leads: 0, sales: 0, revenue_cents: {}, commissions_cents: {} },
      conversion_rates: rates(null, null, null),
    });
  });

  it('reports only the range, with the previous period of the same length beside it', async () => {
    await mixedDay();
    await h.control.clock({ advance_seconds: 7 * 86_400 });
    const later = await click('pat');
    await withKey('/api/v1/track/lead', { click_id: later, customer_key: 'cust_later' });

    const week = (await report('from=2026-03-11&to=2026-03-17')).body.data;
    expect(week.by_day).toHaveLength(7);
    expect(week.totals).toMatchObject({ clicks: 1, leads: 1, sales: 0 });
    expect(week.conversion_rates).toEqual(rates(1, 0, 0));
    expect(week.by_partner).toEqual([expect.objectContaining({ clicks: 1, leads: 1, sales: 0 })]);
    expect(week.previous).toMatchObject({ from: '2026-03-04', to: '2026-03-10', totals: { clicks: 3, leads: 3, sales: 3 } });
    expect(week.previous.conversion_rates).toEqual(rates(2 / 3, 1 / 2, 1 / 3));

    // `days` ends today (2026-03-17 by the test clock) and names the same week.
    const days = (await report('days=7')).body.data;
    expect(days).toEqual(week);

    // A whole leap year is the longest range.
    const year = await report('from=2024-01-01&to=2024-12-31');
    expect(year.status).toBe(200);
    expect(year.body.data.by_day).toHaveLength(366);
  });

  it('refuses a bad range with a clear message', async () => {
    const refusals: [string, string][] = [
      ['from=2026-03-01', 'from and to go together: send both'],
      ['to=2026-03-01', 'from and to go together: send both'],
      ['days=7&from=2026-03-01&to=2026-03-02', 'Send days or from and to, not both'],
      ['from=2026-02-30&to=2026-03-02', 'from and to must be UTC days written YYYY-MM-DD'],
      ['from=2026-3-1&to=2026-03-02', 'from and to must be UTC days written YYYY-MM-DD'],
      ['from=2026-03-01T00:00:00Z&to=2026-03-02', 'from and to must be UTC days written YYYY-MM-DD'],
      ['from=2026-03-02&to=2026-03-01', 'from must not be after to'],
      ['from=2025-01-01&to=2026-01-02', 'from and to may span at most 366 days'],
    ];
    for (const [query, message] of refusals) {
      const res = await report(query);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } });
    }
  });
});
