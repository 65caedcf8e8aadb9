import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Svc, SvcConflictError, SvcUnprocessableEntityError, type SvcWarning } from '../../src';

// The whole funnel through the SDK against the real reference server; every response is validated against the spec.
let server: ReferenceServer;
let svc: Svc;
let programId: number;
let apiKey: string;
const warnings: SvcWarning[] = [];

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  programId = program.id;
  apiKey = program.api_token;
  const partner = await server.control.createPartner({ program_id: programId });
  await server.control.createLink({ program_id: programId, partner_id: partner.id, short_link: 'summer-sale' });
  svc = new Svc({ baseUrl: server.url, apiKey, fetch: contractFetch, onWarning: (w) => warnings.push(w) });
});
afterAll(() => server.close());

describe('funnel', () => {
  it('click → lead → sale → duplicate sale → refund', async () => {
    const click = await svc.track.click({ affiliate_url: 'https://shop.example.com/?aff=summer-sale' });
    expect(click).toMatchObject({ success: true, cookie_window_days: 60 });
    expect(click.requestId).toMatch(/\S/);
    expect(click.rateLimit?.limit).toBe(60);

    expect(await svc.track.lead({ click_id: click.click_id, customer_key: 'user_42' })).toMatchObject({ success: true, duplicate: false });

    const sale = await svc.track.sale({ transaction_id: 'pi_funnel_1', amount_cents: 4_900, currency: 'USD', customer_key: 'user_42' });
    expect(sale).toMatchObject({ success: true, duplicate: false, transaction_id: 'pi_funnel_1' });
    if (sale.duplicate) throw new Error('first sale reported as duplicate');
    expect(sale.commission_id).toEqual(expect.any(Number));

    const again = await svc.track.sale({ transaction_id: 'pi_funnel_1', amount_cents: 4_900, currency: 'USD', customer_key: 'user_42' });
    expect(again).toMatchObject({ success: true, duplicate: true, sale_id: sale.sale_id });
    expect(again).not.toHaveProperty('mismatch');

    // The same id with another amount (Stripe would refuse it): still the first sale, and the difference is visible.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const reused = await svc.track.sale({ transaction_id: 'pi_funnel_1', amount_cents: 9_999, currency: 'usd', customer_key: 'user_42' });
    expect(reused).toMatchObject({
      duplicate: true,
      sale_id: sale.sale_id,
      mismatch: { stored: { amount_cents: 4_900, currency: 'USD' }, sent: { amount_cents: 9_999, currency: 'USD' } },
    });
    warn.mockRestore();

    const refund = await svc.track.refund({ transaction_id: 'pi_funnel_1', reason: 'refund' });
    expect(refund).toMatchObject({ success: true, sale_id: sale.sale_id, commission_status: 'reversed', already_refunded: false });

    const records = await server.control.records(programId);
    expect(records.sales.filter((s) => s.processor_event_id === 'pi_funnel_1')).toHaveLength(1);
  });

  it("another program's transaction_id is a thrown SvcConflictError naming no sale, not a duplicate success", async () => {
    const other = await server.control.createProgram({});
    const otherSvc = new Svc({ baseUrl: server.url, apiKey: other.api_token, fetch: contractFetch, onWarning: () => {} });
    await otherSvc.track.sale({ transaction_id: 'order_1002', amount_cents: 100, additional_data: { test_mode: true } });
    const click = await svc.track.click({ affiliate_url: 'https://shop.example.com/?aff=summer-sale' });
    await svc.track.lead({ click_id: click.click_id, customer_key: 'user_order' });
    const error = await svc.track
      .sale({ transaction_id: 'order_1002', amount_cents: 100, customer_key: 'user_order' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcConflictError);
    expect((error as SvcConflictError).details).toEqual({});
  });

  it('test mode records is_test and creates no commission', async () => {
    const click = await svc.track.click({
      affiliate_url: 'https://shop.example.com/?aff=summer-sale',
      additional_data: { test_mode: true },
    });
    await svc.track.lead({ click_id: click.click_id, customer_key: 'test_user', additional_data: { test_mode: true } });
    const sale = await svc.track.sale({ amount_cents: 100, customer_key: 'test_user', additional_data: { test_mode: true } });
    expect(sale).toMatchObject({ success: true, duplicate: false, commission_id: null });
    expect(sale.transaction_id).toMatch(/^test_txn_/);
  });

  it('422 on an unsupported currency, nothing created', async () => {
    const error = await svc.track
      .sale({ transaction_id: 'pi_gbp', amount_cents: 100, currency: 'GBP' as 'USD', customer_key: 'user_42' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcUnprocessableEntityError);
    expect(error).toMatchObject({
      status: 422,
      code: 'unsupported_currency',
      message: 'currency GBP is not supported',
      envelope: 'platform',
    });
    const records = await server.control.records(programId);
    expect(records.sales.some((s) => s.processor_event_id === 'pi_gbp')).toBe(false);
  });

  it('rotation warnings reach onWarning', async () => {
    await server.control.markKeyRotation(programId, { rotate_by: '2099-01-01T00:00:00Z' });
    warnings.length = 0;
    const result = await svc.track.refund({ transaction_id: 'pi_funnel_1' });
    expect(result.warnings?.[0]).toMatchObject({ code: 'api_key_rotation_required' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ warnings: [{ code: 'api_key_rotation_required' }] });
    expect(warnings[0]!.sunset).toEqual(expect.any(String));
  });
});
