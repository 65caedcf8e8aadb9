import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertValidResponse } from '../../src/testing/validate';
import { harnessPerFile } from '../harness';
import { account, merchant, visitorBuys } from '../partners/support';
import { startReceiver, waitFor, type Receiver } from '../webhooks-out/receiver';

// Payouts as records: the record and its history, its CSV, the program's minimum, the audit entry and the
// `payout.created` webhook, on the store the run uses (SQLite and PostgreSQL).
const t = harnessPerFile();

async function sellingPartner(name = 'Jane') {
  const m = await merchant(t.h);
  const partner = (await m.call('POST', '/partners', { name, email: `${name.toLowerCase()}@example.com` })).body.data;
  const short = `${name.toLowerCase()}-${m.program.id}`;
  await m.call('POST', '/links', { partner_id: partner.id, short_link: short });
  const sell = (cents: number, currency = 'USD') => visitorBuys(t.h, m.program.api_token, short, cents, currency);
  const refund = (transactionId: string) =>
    t.h.request('POST', '/api/v1/track/refund', { key: m.program.api_token, json: { transaction_id: transactionId } });
  const balance = async () =>
    (await m.call('GET', '/partners')).body.data.partners.find((p: { id: number }) => p.id === partner.id).figures.commissions
      .balance_cents;
  return { m, partner, sell, refund, balance };
}

async function csvOf(url: string, cookie: string) {
  const res = await t.h.app.inject({ method: 'GET', url, headers: { cookie } });
  assertValidResponse({ method: 'GET', url, status: res.statusCode, headers: res.headers, body: res.body });
  return res;
}

const auditOf = (programId: number, action: string) =>
  t.h.store.db.selectFrom('audit_log').selectAll().where('program_id', '=', programId).where('action', '=', action).orderBy('id').execute();

const setMinimum = (programId: number, cents: number) =>
  t.h.store.db.updateTable('programs').set({ min_payout_cents: cents }).where('id', '=', programId).execute();

describe('payout records', () => {
  it('records reference, method, note and who; the history lists it newest first with its commissions and CSV', async () => {
    const { m, partner, sell, refund } = await sellingPartner();
    const first = await sell(10_000);
    const one = await m.call('POST', '/payouts', { partner_id: partner.id, reference: 'TR-1', method: 'Wise', note: 'March' });
    expect(one.status).toBe(201);
    expect(one.body.data).toMatchObject({ reference: 'TR-1', method: 'Wise', note: 'March', created_by: expect.stringContaining('@') });
    // A refund after payment is netted by the next payout: it shows there as a clawback, negative in the CSV.
    await refund(first);
    await sell(20_000, 'USD');
    await sell(5_000, 'EUR');
    const two = (await m.call('POST', '/payouts', { partner_id: partner.id, method: 'bank transfer' })).body.data;
    expect(two.totals).toEqual({
      USD: { amount_cents: 2_000, commissions: 1, clawbacks: 1, carried_cents: 0 },
      EUR: { amount_cents: 1_000, commissions: 1, clawbacks: 0, carried_cents: 0 },
    });

    const history = (await m.call('GET', '/payouts')).body.data;
    expect(history.payouts.map((p: { id: number }) => p.id)).toEqual([two.id, one.body.data.id]);
    expect(history.next_cursor).toBeNull();
    const page = (await m.call('GET', '/payouts?limit=1')).body.data;
    expect(page.payouts.map((p: { id: number }) => p.id)).toEqual([two.id]);
    const next = (await m.call('GET', `/payouts?limit=1&cursor=${page.next_cursor}`)).body.data;
    expect(next.payouts.map((p: { id: number }) => p.id)).toEqual([one.body.data.id]);
    expect(next.next_cursor).toBeNull();

    const detail = (await m.call('GET', `/payouts/${two.id}`)).body.data;
    expect(
      detail.commissions.map((c: { settled_as: string; commission: { status: string } }) => [c.settled_as, c.commission.status]),
    ).toEqual([
      ['clawback', 'reversed'],
      ['paid', 'paid'],
      ['paid', 'paid'],
    ]);
    const csv = await csvOf(`${m.base}/payouts/${two.id}.csv`, m.cookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="payout-${two.id}-program-${m.program.id}.csv"`);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(
      'payout_id,partner_id,commission_id,sale_id,transaction_id,settled_as,amount_cents,currency,created_at,paid_at,reversed_at,reference,method',
    );
    expect(lines[1]).toMatch(new RegExp(`^${two.id},${partner.id},\\d+,\\d+,${first},clawback,-2000,USD,`));
    expect(lines[2]).toMatch(/,paid,4000,USD,.*,,bank transfer$/);
    expect(lines[3]).toMatch(/,paid,1000,EUR,/);
    expect(lines).toHaveLength(5);
  });

  it('filters the history by partner, and answers 404 for another program’s payout and 400 for bad parameters', async () => {
    const { m, partner, sell } = await sellingPartner();
    const bob = (await m.call('POST', '/partners', { name: 'Bob' })).body.data;
    await m.call('POST', '/links', { partner_id: bob.id, short_link: `bob-${m.program.id}` });
    await sell(10_000);
    await visitorBuys(t.h, m.program.api_token, `bob-${m.program.id}`, 10_000);
    const janes = (await m.call('POST', '/payouts', { partner_id: partner.id })).body.data;
    const bobs = (await m.call('POST', '/payouts', { partner_id: bob.id })).body.data;
    expect((await m.call('GET', `/payouts?partner_id=${bob.id}`)).body.data.payouts.map((p: { id: number }) => p.id)).toEqual([bobs.id]);
    expect((await m.call('GET', `/payouts?partner_id=${partner.id}`)).body.data.payouts.map((p: { id: number }) => p.id)).toEqual([
      janes.id,
    ]);

    const other = await merchant(t.h, 'other.example');
    for (const path of [`/payouts/${janes.id}`]) expect((await other.call('GET', path)).status).toBe(404);
    expect((await csvOf(`${other.base}/payouts/${janes.id}.csv`, other.cookie)).statusCode).toBe(404);
    expect((await other.call('GET', `/payouts?partner_id=${partner.id}`)).status).toBe(404);
    expect((await m.call('GET', '/payouts/abc')).body.error.message).toBe('payoutId must be a positive integer');
    for (const query of ['limit=0', 'limit=101', 'cursor=x']) {
      expect((await m.call('GET', `/payouts?${query}`)).body.error.message, query).toBe(
        'limit must be 1 to 100 and cursor a next_cursor of a previous page',
      );
    }
  });

  it('refuses bad reference, method, note and force, recording nothing', async () => {
    const { m, partner, sell, balance } = await sellingPartner();
    await sell(10_000);
    const refusals: [Record<string, unknown>, string][] = [
      [{ reference: 'r'.repeat(201) }, 'reference must be text of at most 200 characters, or null'],
      [{ method: 'm'.repeat(101) }, 'method must be text of at most 100 characters, or null'],
      [{ method: 7 }, 'method must be text of at most 100 characters, or null'],
      [{ note: 'n'.repeat(1001) }, 'note must be text of at most 1000 characters, or null'],
      [{ force: 'yes' }, 'force must be true or false'],
    ];
    for (const [fields, message] of refusals) {
      const res = await m.call('POST', '/payouts', { partner_id: partner.id, ...fields });
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await m.call('GET', '/payouts')).body.data.payouts).toEqual([]);
    expect(await balance()).toEqual({ USD: 2_000 });
    // At the limits, accepted.
    const ok = await m.call('POST', '/payouts', {
      partner_id: partner.id,
      reference: 'r'.repeat(200),
      method: 'm'.repeat(100),
      note: 'n'.repeat(1000),
    });
    expect(ok.status).toBe(201);
  });
});

describe('the minimum payout', () => {
  it('refuses a payout below min_payout_cents, naming the minimum, and changes nothing; force records it', async () => {
    const { m, partner, sell, balance } = await sellingPartner();
    await setMinimum(m.program.id, 5_000);
    await sell(10_000);
    const refused = await m.call('POST', '/payouts', { partner_id: partner.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      message: "The payout is below the program's minimum payout; send force: true to record it anyway",
      details: { min_payout_cents: 5_000 },
    });
    expect(await balance()).toEqual({ USD: 2_000 });
    expect((await m.call('GET', '/payouts')).body.data.payouts).toEqual([]);
    expect(await auditOf(m.program.id, 'payout.created')).toEqual([]);

    const forced = await m.call('POST', '/payouts', { partner_id: partner.id, force: true });
    expect(forced.status).toBe(201);
    expect(forced.body.data.totals.USD.amount_cents).toBe(2_000);
    expect(await balance()).toEqual({});
    const [entry] = await auditOf(m.program.id, 'payout.created');
    expect(JSON.parse(entry!.details)).toMatchObject({ forced_below_minimum: 5_000 });
  });

  it('pays without force once the amount reaches the minimum', async () => {
    const { m, partner, sell } = await sellingPartner();
    await setMinimum(m.program.id, 4_000);
    await sell(10_000);
    await sell(10_000);
    expect((await m.call('POST', '/payouts', { partner_id: partner.id })).status).toBe(201);
  });
});

describe('the audit entry and the payout.created event', () => {
  let r: Receiver;
  beforeEach(async () => {
    r = await startReceiver();
  });
  afterEach(() => r.close());

  it('records payout.created with the owner and totals, and sends payout.created verified with standardwebhooks', async () => {
    const { m, partner, sell } = await sellingPartner();
    const added = await m.call('POST', '/webhook-endpoints', { url: `${r.url}/hook`, events: ['payout.created'] });
    expect(added.status).toBe(201);
    r.secret = added.body.data.secret;
    await sell(10_000);
    const owner = await t.h.store.db
      .selectFrom('accounts')
      .select('email')
      .where('id', '=', m.program.account_id)
      .executeTakeFirstOrThrow();
    const payout = (await m.call('POST', '/payouts', { partner_id: partner.id, reference: 'TR-9', method: 'PayPal' })).body.data;
    expect(payout.created_by).toBe(owner.email);

    const [entry, more] = await auditOf(m.program.id, 'payout.created');
    expect(more).toBeUndefined();
    expect(entry).toMatchObject({ actor: owner.email, actor_account_id: m.program.account_id, target: `payout:${payout.id}` });
    expect(JSON.parse(entry!.details)).toEqual({
      partner_id: partner.id,
      totals: { USD: { amount_cents: 2_000, commissions: 1, clawbacks: 0, carried_cents: 0 } },
    });

    const [got] = await waitFor('payout.created delivered', () => r.received.length >= 1 && r.received);
    expect(got!.verifyError, got!.body).toBeUndefined();
    expect(got!.specErrors).toEqual([]);
    expect(got!.event).toEqual({ type: 'payout.created', timestamp: payout.created_at, data: { program_id: m.program.id, ...payout } });

    // A refused payout (nothing left) sends nothing and records nothing.
    expect((await m.call('POST', '/payouts', { partner_id: partner.id })).status).toBe(409);
    expect(await auditOf(m.program.id, 'payout.created')).toHaveLength(1);
  });

  it('is refused to a member who is not an owner, with nothing recorded', async () => {
    const { m, partner, sell } = await sellingPartner();
    await sell(10_000);
    const member = await account(t.h, 'member@example.com', { programId: m.program.id, role: 'member' });
    expect((await m.call('POST', '/payouts', { partner_id: partner.id }, member)).status).toBe(403);
    expect(await auditOf(m.program.id, 'payout.created')).toEqual([]);
  });
});
