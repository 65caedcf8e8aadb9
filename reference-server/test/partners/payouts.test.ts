import { describe, expect, it } from 'vitest';
import { assertValidResponse } from '../../src/testing/validate';
import { harnessPerFile } from '../harness';
import { holdCommissionsLocked } from './row-lock';
import { account, merchant, visitorBuys } from './support';

const t = harnessPerFile();

async function sellingPartner() {
  const m = await merchant(t.h);
  const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
  await m.call('POST', '/links', { partner_id: jane.id, short_link: `jane-${m.program.id}` });
  const sell = (cents: number, currency = 'USD') => visitorBuys(t.h, m.program.api_token, `jane-${m.program.id}`, cents, currency);
  const figures = async () => (await m.call('GET', '/partners')).body.data.partners[0].figures.commissions;
  const refund = (transactionId: string) =>
    t.h.request('POST', '/api/v1/track/refund', { key: m.program.api_token, json: { transaction_id: transactionId } });
  return { m, jane, sell, figures, refund };
}

const today = () => new Date().toISOString().slice(0, 10);

/** The CSV is not JSON, so it is fetched with `inject` (not `h.request`) and validated against the spec here. */
async function csvOf(url: string, cookie: string) {
  const res = await t.h.app.inject({ method: 'GET', url, headers: { cookie } });
  assertValidResponse({ method: 'GET', url, status: res.statusCode, headers: res.headers, body: res.body });
  return res;
}

describe('GET /api/dashboard/programs/:programId/commissions.csv', () => {
  it('has one row per commission in the range, with partner, sale, transaction id, amount, currency, status and dates', async () => {
    const { m, jane, sell, refund } = await sellingPartner();
    const kept = await sell(10_000);
    const refunded = await sell(5_000, 'EUR');
    await refund(refunded);
    const res = await csvOf(`${m.base}/commissions.csv?from=${today()}&to=${today()}`, m.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="commissions-program-${m.program.id}-${today()}-to-${today()}.csv"`,
    );
    const [header, first, second, end] = res.body.split('\r\n');
    expect(header).toBe(
      'commission_id,partner_id,partner_name,partner_email,sale_id,transaction_id,sale_amount_cents,amount_cents,currency,status,sale_at,created_at,paid_at,reversed_at,payout_id,kind,due_at',
    );
    expect(first).toMatch(
      new RegExp(`^\\d+,${jane.id},Jane,jane@example.com,\\d+,${kept},10000,2000,USD,due,[^,]+Z,[^,]+Z,,,,sale,[^,]+Z$`),
    );
    expect(second).toMatch(
      new RegExp(`^\\d+,${jane.id},Jane,jane@example.com,\\d+,${refunded},5000,1000,EUR,reversed,[^,]+Z,[^,]+Z,,[^,]+Z,,sale,[^,]+Z$`),
    );
    expect(end).toBe('');
  });

  it('filters by dates and partner, and refuses a bad range, a foreign partner and other programs', async () => {
    const { m, jane, sell } = await sellingPartner();
    await sell(1_000);
    const csv = (query: string) => csvOf(`${m.base}/commissions.csv?${query}`, m.cookie);
    expect((await csv('from=2000-01-01&to=2000-12-31')).body.split('\r\n')).toHaveLength(2);
    expect((await csv(`from=${today()}&to=${today()}&partner_id=${jane.id}`)).body.split('\r\n')).toHaveLength(3);
    const bob = (await m.call('POST', '/partners', { name: 'Bob' })).body.data;
    expect((await csv(`from=${today()}&to=${today()}&partner_id=${bob.id}`)).body.split('\r\n')).toHaveLength(2);
    for (const query of ['to=yesterday', 'from=2025-02-01&to=2025-01-01', 'from=yesterday&to=2025-01-01']) {
      const res = await m.call('GET', `/commissions.csv?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toBe('from and to are required: dates (YYYY-MM-DD) or ISO 8601 date-times, from not after to');
    }
    const other = await merchant(t.h, 'other.example');
    expect((await other.call('GET', `/commissions.csv?from=2025-01-01&to=2025-01-02&partner_id=${jane.id}`)).status).toBe(404);
  });
});

describe('the commission CSV without a range, and its payout_id column', () => {
  it('exports everything when from and to are absent, names the range in the file, and names the paying payout', async () => {
    const { m, jane, sell } = await sellingPartner();
    await sell(10_000);
    const payout = (await m.call('POST', '/payouts', { partner_id: jane.id })).body.data;
    await sell(5_000);
    const all = await csvOf(`${m.base}/commissions.csv`, m.cookie);
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-disposition']).toBe(`attachment; filename="commissions-program-${m.program.id}-start-to-now.csv"`);
    const [, paid, due, end] = all.body.split('\r\n');
    expect(paid).toMatch(new RegExp(`,2000,USD,paid,[^,]+Z,[^,]+Z,[^,]+Z,,${payout.id},sale,[^,]+Z$`));
    expect(due).toMatch(/,1000,USD,due,[^,]+Z,[^,]+Z,,,,sale,[^,]+Z$/);
    expect(end).toBe('');
    const since = await csvOf(`${m.base}/commissions.csv?from=2000-01-01`, m.cookie);
    expect(since.headers['content-disposition']).toBe(`attachment; filename="commissions-program-${m.program.id}-2000-01-01-to-now.csv"`);
    expect(since.body.split('\r\n')).toHaveLength(4);
    expect((await csvOf(`${m.base}/commissions.csv?to=2000-01-01`, m.cookie)).body.split('\r\n')).toHaveLength(2);
  });
});

describe('POST /api/dashboard/programs/:programId/payouts', () => {
  it('marks due commissions paid through the date, idempotently, and never pays a reversed one', async () => {
    const { m, jane, sell, refund, figures } = await sellingPartner();
    await sell(10_000);
    await refund(await sell(20_000));
    const paid = await m.call('POST', '/payouts', { partner_id: jane.id, through: today() });
    expect(paid.status).toBe(201);
    expect(paid.body.data).toEqual({
      id: expect.any(Number),
      partner_id: jane.id,
      through: expect.stringMatching(/T23:59:59\.999Z$/),
      totals: { USD: { amount_cents: 2_000, commissions: 1, clawbacks: 0, carried_cents: 0 } },
      reference: null,
      method: null,
      note: null,
      created_by: expect.stringContaining('@'),
      created_at: expect.any(String),
    });
    expect(await figures()).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: { USD: 2_000 },
      reversed_cents: { USD: 4_000 },
      balance_cents: {},
    });
    const again = await m.call('POST', '/payouts', { partner_id: jane.id, through: today() });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Nothing to pay: the partner has no due commissions through that date');
    expect((await m.call('GET', '/payouts')).body.data.payouts).toHaveLength(1);
    expect(await figures()).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: { USD: 2_000 },
      reversed_cents: { USD: 4_000 },
      balance_cents: {},
    });
  });

  it('settles each commission once when two payouts arrive at the same time: the answers add up to what was due', async () => {
    const { m, jane, sell, figures } = await sellingPartner();
    await sell(10_000);
    await sell(5_000);
    // PostgreSQL: another writer holds the commissions, so both payouts are under way together before either can
    // settle anything (SQLite runs one transaction at a time: the two simply queue).
    const lock = await holdCommissionsLocked(t.h.store, jane.id);
    const payout = () => m.call('POST', '/payouts', { partner_id: jane.id, through: today() });
    const both = Promise.all([payout(), payout()]);
    await lock.waitForBlocked(2);
    await lock.release();
    const answers = await both;
    // The second finds nothing left to pay: one record holds both commissions.
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const recorded = answers.find((a) => a.status === 201)!.body.data;
    expect(recorded.totals).toEqual({ USD: { amount_cents: 3_000, commissions: 2, clawbacks: 0, carried_cents: 0 } });
    const history = (await m.call('GET', '/payouts')).body.data.payouts;
    expect(history.map((p: { id: number }) => p.id)).toEqual([recorded.id]);
    expect((await m.call('GET', `/payouts/${recorded.id}`)).body.data.commissions).toHaveLength(2);
    expect(await figures()).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: { USD: 3_000 },
      reversed_cents: {},
      balance_cents: {},
    });
  });

  it('leaves commissions created after `through` due', async () => {
    const { m, jane, sell, figures } = await sellingPartner();
    await sell(10_000);
    const res = await m.call('POST', '/payouts', { partner_id: jane.id, through: '2000-01-01' });
    expect(res.status).toBe(409);
    expect((await figures()).due_cents).toEqual({ USD: 2_000 });
  });

  it('shows a refund after payment as a negative balance, carried until due commissions cover it', async () => {
    const { m, jane, sell, refund, figures } = await sellingPartner();
    const first = await sell(10_000);
    await m.call('POST', '/payouts', { partner_id: jane.id, through: today() });
    await refund(first);
    expect(await figures()).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: { USD: 2_000 },
      reversed_cents: { USD: 2_000 },
      balance_cents: { USD: -2_000 },
    });

    // Owed back more than due: nothing settles, the balance carries.
    await sell(5_000);
    const carried = await m.call('POST', '/payouts', { partner_id: jane.id, through: today() });
    expect(carried.status).toBe(409);
    expect((await figures()).balance_cents).toEqual({ USD: -1_000 });

    // Enough due now: the payout nets the clawback and pays the rest.
    await sell(10_000);
    const netted = await m.call('POST', '/payouts', { partner_id: jane.id, through: today() });
    expect(netted.body.data.totals).toEqual({ USD: { amount_cents: 1_000, commissions: 2, clawbacks: 1, carried_cents: 0 } });
    expect(await figures()).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: { USD: 5_000 },
      reversed_cents: { USD: 2_000 },
      balance_cents: {},
    });
  });

  it('is for owners only; checks partner_id and through; nothing changes on a refusal', async () => {
    const { m, jane, sell, figures } = await sellingPartner();
    await sell(10_000);
    const member = await account(t.h, 'member@example.com', { programId: m.program.id, role: 'member' });
    const refused = await m.call('POST', '/payouts', { partner_id: jane.id, through: today() }, member);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only a workspace owner can record a payout');
    expect((await m.call('POST', '/payouts', { through: today() })).body.error.message).toBe('partner_id must be a positive integer');
    expect((await m.call('POST', '/payouts', { partner_id: jane.id, through: 'soon' })).body.error.message).toBe(
      'through is required: a date (YYYY-MM-DD) or an ISO 8601 date-time',
    );
    expect((await m.call('POST', '/payouts', { partner_id: 999_999, through: today() })).status).toBe(404);
    expect((await figures()).due_cents).toEqual({ USD: 2_000 });
  });
});
