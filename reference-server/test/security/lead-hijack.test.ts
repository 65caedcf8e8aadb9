import { describe, expect, it } from 'vitest';
import { createWorld, platformError, trackingSuite, txnId } from '../tracking/world';
import { readProgramMetrics } from '../../src/store/engine';

// A fraudster clicks their own link, then sends a browser-mode lead claiming a real
// customer's key. The program's own server-mode lead must not be refused by it and decides the attribution.
const t = trackingSuite();

const leadCount = async (programId: number) => (await readProgramMetrics(t.h.store.db, programId)).leads;

describe('browser-mode lead hijack', () => {
  it('a server-mode lead with the real click takes the key from a forged browser lead; the sale pays the real partner', async () => {
    const w = await createWorld(t.h, { lead_auth: 'browser_allowed' });
    const fraudster = await t.h.control.createPartner({ program_id: w.programId, name: 'Mallory' });
    await t.h.control.createLink({ program_id: w.programId, partner_id: fraudster.id, short_link: `mallory-${w.programId}` });
    const fraudClick = (await w.click({ affiliate_url: `https://shop.example.com/?aff=mallory-${w.programId}` })).body.click_id;
    expect((await w.lead({ click_id: fraudClick, customer_key: 'user_42' }, null)).body).toMatchObject({ success: true, attributed: true });

    const realClick = await w.clickId();
    const server = await w.lead({ click_id: realClick, customer_key: 'user_42' });
    expect(server.status).toBe(200);
    expect(server.body).toMatchObject({ success: true, attributed: true });

    const sale = await w.sale({ transaction_id: txnId(), amount_cents: 10_000, customer_key: 'user_42' });
    expect(sale.status).toBe(200);
    const records = await w.records();
    expect(records.customers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ click_id: fraudClick, customer_key: null, status: 'clicked', partner_id: fraudster.id }),
        expect.objectContaining({ click_id: realClick, customer_key: 'user_42', status: 'converted', partner_id: w.partnerId }),
      ]),
    );
    const commissions = await t.h.store.db.selectFrom('commissions').select('partner_id').where('program_id', '=', w.programId).execute();
    expect(commissions).toEqual([{ partner_id: w.partnerId }]);
  });

  it('the same server-mode lead sent twice at once takes the key from the browser lead once; the other is a second lead', async () => {
    const w = await createWorld(t.h, { lead_auth: 'browser_allowed' });
    const fraudClick = await w.clickId();
    expect((await w.lead({ click_id: fraudClick, customer_key: 'user_77' }, null)).status).toBe(200);
    const realClick = await w.clickId();
    const results = await Promise.all([1, 2].map(() => w.lead({ click_id: realClick, customer_key: 'user_77' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    platformError(
      results.find((r) => r.status === 400)!,
      400,
      'Customer status cannot be updated to lead. Current status: lead',
    );
    expect((await w.records()).customers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ click_id: fraudClick, customer_key: null, status: 'clicked' }),
        expect.objectContaining({ click_id: realClick, customer_key: 'user_77', status: 'lead' }),
      ]),
    );
    // The browser lead when it came, the server's once.
    expect(await leadCount(w.programId)).toBe(2);
  });

  it('a server-mode lead without a click makes the customer unattributed: a forged claim pays no one', async () => {
    const w = await createWorld(t.h, { lead_auth: 'browser_allowed' });
    const fraudClick = await w.clickId();
    expect((await w.lead({ click_id: fraudClick, customer_key: 'organic_7' }, null)).status).toBe(200);
    expect((await w.lead({ customer_key: 'organic_7' })).status).toBe(200);
    const customers = (await w.records()).customers;
    expect(customers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ click_id: fraudClick, customer_key: null, status: 'clicked' }),
        expect.objectContaining({ click_id: null, customer_key: 'organic_7', partner_id: null, status: 'lead' }),
      ]),
    );
    const sale = await w.sale({ transaction_id: txnId(), amount_cents: 5_000, customer_key: 'organic_7' });
    platformError(sale, 400, 'No partner-program relationship found for this customer', 'no_attribution');
  });

  it("a server-mode lead naming the browser lead's own click confirms it without counting it twice", async () => {
    const w = await createWorld(t.h, { lead_auth: 'browser_allowed' });
    const click = await w.clickId();
    expect((await w.lead({ click_id: click, customer_key: 'user_ok' }, null)).status).toBe(200);
    expect((await w.lead({ click_id: click, customer_key: 'user_ok' })).status).toBe(200);
    expect((await w.records()).customers).toEqual([expect.objectContaining({ click_id: click, customer_key: 'user_ok', status: 'lead' })]);
    expect(await leadCount(w.programId)).toBe(1);
    // Confirmed by the server, the lead is settled: a second one is refused as before.
    platformError(await w.lead({ customer_key: 'user_ok' }), 400, 'Customer status cannot be updated to lead. Current status: lead');
  });

  it('a second browser-mode lead still cannot take a key a browser lead holds', async () => {
    const w = await createWorld(t.h, { lead_auth: 'browser_allowed' });
    expect((await w.lead({ click_id: await w.clickId(), customer_key: 'user_b' }, null)).status).toBe(200);
    platformError(
      await w.lead({ click_id: await w.clickId(), customer_key: 'user_b' }, null),
      400,
      'Customer status cannot be updated to lead. Current status: lead',
    );
  });

  it('with allowed origins, a browser-mode lead or click without Origin is refused 403 and records nothing', async () => {
    const w = await createWorld(t.h, { lead_auth: 'browser_allowed', allowed_origins: ['https://shop.example.com'] });
    const click = (await w.click({}, { origin: 'https://shop.example.com' })).body.click_id;
    const message = 'An Origin header is required: this program accepts browser calls only from its allowed origins';
    platformError(await w.lead({ click_id: click, customer_key: 'user_x' }, null), 403, message);
    platformError(await w.click(), 403, message);
    const records = await w.records();
    expect(records.clicks).toHaveLength(1);
    expect(records.customers).toEqual([expect.objectContaining({ click_id: click, status: 'clicked', customer_key: null })]);
    // Server mode needs no Origin.
    expect((await w.lead({ click_id: click, customer_key: 'user_x' })).status).toBe(200);
  });
});
