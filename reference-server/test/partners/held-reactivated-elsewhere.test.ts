import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSchemaName } from '../../src/store/db';
import { createHarness, type Harness } from '../harness';
import { merchant } from './support';

const postgres = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/**
 * A partner reactivated by another server while this one still caches them as suspended (its NOTIFY not yet
 * arrived, store/engine/lookup-cache.ts): a sale here must not write a held commission after that reactivation released
 * the held ones, or it would stay held with the partner active. PostgreSQL only: SQLite is one process, one writer.
 */
describe.skipIf(!postgres)('a sale racing a reactivation on another server', () => {
  const schema = uniqueSchemaName();
  let h: Harness;
  let other: pg.Client;
  beforeAll(async () => {
    // The cache keeps entries for ten minutes, so only the sale's own read of the partner can see the reactivation.
    h = await createHarness({}, { pgSchema: schema, lookupCacheMaxAgeMs: 600_000 });
    other = new pg.Client({ connectionString: postgres });
    await other.connect();
    await other.query(`SET search_path TO ${schema}`);
  });
  afterAll(async () => {
    await other.end();
    await h.close();
  });

  it('is due, not held, once the reactivation committed', async () => {
    const m = await merchant(h);
    const key = m.program.api_token;
    const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
    await m.call('POST', '/links', { partner_id: jane.id, short_link: `jane-elsewhere-${m.program.id}` });
    const customers: string[] = [];
    for (const n of [1, 2]) {
      const click = await h.request('POST', '/api/v1/track/click', {
        json: { affiliate_url: `https://shop.example/?aff=jane-elsewhere-${m.program.id}` },
      });
      const customerKey = `cust_elsewhere_${n}`;
      expect(
        (await h.request('POST', '/api/v1/track/lead', { key, json: { click_id: click.body.click_id, customer_key: customerKey } })).status,
      ).toBe(200);
      customers.push(customerKey);
    }
    const buy = async (customerKey: string) => {
      const sale = await h.request('POST', '/api/v1/track/sale', {
        key,
        json: { transaction_id: `txn_${customerKey}`, amount_cents: 10_000, currency: 'USD', customer_key: customerKey },
      });
      expect(sale.status).toBe(200);
      return sale.body.commission_id as number;
    };
    const status = async (id: number) => (await other.query('SELECT status FROM commissions WHERE id = $1', [id])).rows[0].status;

    expect((await m.call('PATCH', `/partners/${jane.id}`, { status: 'suspended' })).status).toBe(200);
    // This sale reads Jane as suspended and leaves her cached so.
    expect(await status(await buy(customers[0]!))).toBe('held');

    // Another server reactivates Jane and releases her held commissions, as changePartner does.
    await other.query('BEGIN');
    await other.query(`UPDATE partners SET status = 'active' WHERE id = $1`, [jane.id]);
    await other.query(`UPDATE commissions SET status = 'pending', hold_reason = NULL WHERE partner_id = $1 AND status = 'held'`, [jane.id]);
    await other.query('COMMIT');

    expect(await status(await buy(customers[1]!))).toBe('pending');
    const figures = (await m.call('GET', '/partners')).body.data.partners[0].figures.commissions;
    expect(figures).toMatchObject({ due_cents: { USD: 4_000 }, held_cents: {} });
  });
});
