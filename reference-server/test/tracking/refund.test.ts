import { describe, expect, it } from 'vitest';
import { readMetrics } from '../../src/domain/metrics/read';
import { createWorld, platformError, trackingSuite, txnId, type World } from './world';

const t = trackingSuite();

async function paidSale(world: World, amount = 4900) {
  const clickId = await world.clickId();
  const key = `user_${Math.random().toString(36).slice(2)}`;
  await world.lead({ click_id: clickId, customer_key: key });
  const transaction = txnId();
  const res = await world.sale({ transaction_id: transaction, amount_cents: amount, customer_key: key });
  expect(res.status).toBe(200);
  return { transaction, saleId: res.body.sale_id as number, commissionId: res.body.commission_id as number };
}

describe('POST /api/v1/track/refund', () => {
  it('refunds the sale, reverses its commission and takes both out of the metrics', async () => {
    const sale = await paidSale(t.w);
    const res = await t.w.refund({ transaction_id: sale.transaction, reason: 'chargeback', refund_reason: 'disputed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      sale_id: sale.saleId,
      commission_id: sale.commissionId,
      transaction_id: sale.transaction,
      commission_status: 'reversed',
      already_refunded: false,
    });
    expect(res.headers['x-request-id']).toBeTruthy();
    const records = await t.w.records();
    expect(records.sales[0]?.refunded).toBe(true);
    expect(records.commissions).toEqual([{ id: sale.commissionId, sale_id: sale.saleId, amount_cents: 490, status: 'reversed' }]);
    const stored = await t.h.store.db.selectFrom('sales').selectAll().where('id', '=', sale.saleId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ refund_reason: 'chargeback', refund_note: 'disputed' });
    expect(await readMetrics(t.h.store.db, t.w.programId)).toMatchObject({
      sales: 1,
      revenue_cents: { USD: 0 },
      commissions_cents: { USD: 0 },
    });
  });

  it('changes nothing on a second refund (already_refunded)', async () => {
    const sale = await paidSale(t.w);
    await t.w.refund({ transaction_id: sale.transaction });
    const again = await t.w.refund({ transaction_id: sale.transaction, reason: 'refund' });
    expect(again.body).toMatchObject({ already_refunded: true, commission_status: 'reversed' });
    expect((await readMetrics(t.h.store.db, t.w.programId)).revenue_cents).toEqual({ USD: 0 });
  });

  it('refunds a test sale, which has no commission', async () => {
    const res = await t.w.sale({ amount_cents: 100, additional_data: { test_mode: true } });
    const refund = await t.w.refund({ transaction_id: res.body.transaction_id });
    expect(refund.body).toMatchObject({ commission_id: null, commission_status: 'none', already_refunded: false });
  });

  it('answers its 400 and 404 messages with error.code, changing nothing', async () => {
    const sale = await paidSale(t.w);
    platformError(await t.w.refund({}), 400, 'transaction_id is required', 'invalid_request');
    platformError(await t.w.refund({ transaction_id: 7 }), 400, 'transaction_id is required', 'invalid_request');
    platformError(
      await t.w.refund({ transaction_id: sale.transaction, reason: 'changed_mind' }),
      400,
      'reason must be refund or chargeback',
      'invalid_request',
    );
    platformError(await t.w.refund({ transaction_id: 'ch_never_seen' }), 404, 'Sale not found for transaction_id', 'not_found');
    const other = await createWorld(t.h);
    platformError(await other.refund({ transaction_id: sale.transaction }), 404, 'Sale not found for transaction_id', 'not_found');
    expect((await t.w.records()).commissions[0]?.status).toBe('pending');
  });

  it('answers 500 Refund tracking failed when the refund fails inside the service', async () => {
    const sale = await paidSale(t.w);
    await t.h.control.armFault({ point: 'refund' });
    platformError(await t.w.refund({ transaction_id: sale.transaction }), 500, 'Refund tracking failed', 'internal_error');
    expect((await t.w.records()).sales[0]?.refunded).toBe(false);
    expect((await t.w.refund({ transaction_id: sale.transaction })).body.already_refunded).toBe(false);
  });
});
