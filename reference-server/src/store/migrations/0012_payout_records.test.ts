import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { payoutRecordsMigration } from './0012_payout_records';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe('migration 0012: payout records', () => {
  it('writes each earlier payout (a partner, a moment) as a record by system, naming it on the rows it settled', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const db = store.db;
    const commission = async (
      id: number,
      row: { amount: number; currency?: 'USD' | 'EUR'; paid?: number; clawback?: number; status?: 'pending' | 'reversed' },
    ) =>
      db
        .insertInto('commissions')
        .values({
          id,
          sale_id: id,
          program_id: 7,
          partner_id: 3,
          amount_cents: row.amount,
          currency: row.currency ?? 'USD',
          status: row.status ?? 'pending',
          created_at: 1,
          due_at: 1,
          reversed_at: row.status === 'reversed' ? 2 : null,
          paid_at: row.paid ?? null,
          clawback_settled_at: row.clawback ?? null,
        })
        .execute();
    await commission(1, { amount: 2_000, paid: 100, status: 'reversed', clawback: 200 });
    await commission(2, { amount: 500, currency: 'EUR', paid: 100 });
    await commission(3, { amount: 3_000, paid: 200 });
    await commission(4, { amount: 700 });
    // As before the migration: none of its table, columns or indexes.
    await db.schema.dropTable('payouts').execute();
    for (const index of ['commissions_payout', 'commissions_clawback_payout']) await db.schema.dropIndex(index).execute();
    for (const column of ['payout_id', 'clawback_payout_id']) await db.schema.alterTable('commissions').dropColumn(column).execute();
    for (const column of ['commission_type', 'commission_rate']) await db.schema.alterTable('partners').dropColumn(column).execute();
    await payoutRecordsMigration(store.dialect).up(db as unknown as Kysely<unknown>);

    const payouts = await db.selectFrom('payouts').selectAll().orderBy('id').execute();
    expect(payouts.map((p) => ({ at: Number(p.created_at), by: p.created_by, totals: JSON.parse(p.totals) }))).toEqual([
      {
        at: 100,
        by: 'system',
        totals: {
          USD: { amount_cents: 2_000, commissions: 1, clawbacks: 0, carried_cents: 0 },
          EUR: { amount_cents: 500, commissions: 1, clawbacks: 0, carried_cents: 0 },
        },
      },
      { at: 200, by: 'system', totals: { USD: { amount_cents: 1_000, commissions: 1, clawbacks: 1, carried_cents: 0 } } },
    ]);
    const [first, second] = payouts.map((p) => Number(p.id));
    const rows = await db.selectFrom('commissions').select(['id', 'payout_id', 'clawback_payout_id']).orderBy('id').execute();
    expect(
      rows.map((r) => [
        r.id,
        r.payout_id === null ? null : Number(r.payout_id),
        r.clawback_payout_id === null ? null : Number(r.clawback_payout_id),
      ]),
    ).toEqual([
      [1, first, second],
      [2, first, null],
      [3, second, null],
      [4, null, null],
    ]);
  });
});
