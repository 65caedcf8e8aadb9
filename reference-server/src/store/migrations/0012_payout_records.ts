import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/**
 * Payouts as records and per-partner terms. A `payouts` row is what the owner recorded paying one partner:
 * totals per currency (JSON, written once), reference, method, note and who. A commission gains `payout_id` (the
 * payout that paid it) and `clawback_payout_id` (the payout that netted it after a refund). A partner gains its own
 * `commission_type` and `commission_rate` (both null: the program's). (`programs.min_payout_cents` is 0011's.)
 * Payouts made before these records are written as records too (`recordEarlierPayouts`), so every paid commission
 * names its payout.
 */
export function payoutRecordsMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const rate = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('payouts')
        .addColumn('id', sql.raw(id), (c) => {
          const pk = c.primaryKey();
          return dialect === 'sqlite' ? pk.autoIncrement() : pk;
        })
        .addColumn('program_id', sql.raw(big), (c) => c.notNull())
        .addColumn('partner_id', sql.raw(big), (c) => c.notNull())
        .addColumn('through', sql.raw(big), (c) => c.notNull())
        .addColumn('totals', 'text', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('method', 'text')
        .addColumn('note', 'text')
        .addColumn('created_by_account_id', sql.raw(big))
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', sql.raw(big), (c) => c.notNull())
        .execute();
      // Newest first per program, optionally of one partner (the history's only reads).
      await db.schema.createIndex('payouts_program').on('payouts').columns(['program_id', 'id']).execute();
      await db.schema.createIndex('payouts_program_partner').on('payouts').columns(['program_id', 'partner_id', 'id']).execute();
      await db.schema.alterTable('commissions').addColumn('payout_id', sql.raw(big)).execute();
      await db.schema.alterTable('commissions').addColumn('clawback_payout_id', sql.raw(big)).execute();
      await db.schema.createIndex('commissions_payout').on('commissions').column('payout_id').execute();
      await db.schema.createIndex('commissions_clawback_payout').on('commissions').column('clawback_payout_id').execute();
      await db.schema.alterTable('partners').addColumn('commission_type', 'text').execute();
      await db.schema.alterTable('partners').addColumn('commission_rate', sql.raw(rate)).execute();
      await recordEarlierPayouts(db as Kysely<Earlier>);
    },
  };
}

interface Earlier {
  commissions: {
    id: number;
    program_id: number;
    partner_id: number;
    amount_cents: number;
    currency: string;
    paid_at: number | null;
    clawback_settled_at: number | null;
    payout_id: number | null;
    clawback_payout_id: number | null;
  };
  payouts: {
    id?: number;
    program_id: number;
    partner_id: number;
    through: number;
    totals: string;
    created_by: string;
    created_at: number;
  };
}

type Totals = Record<string, { amount_cents: number; commissions: number; clawbacks: number; carried_cents: number }>;

/**
 * A payout before this migration marked a partner's commissions paid (and netted clawbacks) at one moment: each
 * (partner, moment) becomes one payout record by `system`, its totals summed from those rows, and the rows name it.
 */
async function recordEarlierPayouts(db: Kysely<Earlier>): Promise<void> {
  const rows = await db
    .selectFrom('commissions')
    .select(['id', 'program_id', 'partner_id', 'amount_cents', 'currency', 'paid_at', 'clawback_settled_at'])
    .where((eb) => eb.or([eb('paid_at', 'is not', null), eb('clawback_settled_at', 'is not', null)]))
    .orderBy('id')
    .execute();
  const payouts = new Map<
    string,
    { program_id: number; partner_id: number; at: number; totals: Totals; paid: number[]; netted: number[] }
  >();
  const payoutAt = (r: (typeof rows)[number], at: number) => {
    const key = `${r.partner_id}@${at}`;
    let payout = payouts.get(key);
    if (!payout)
      payouts.set(
        key,
        (payout = { program_id: Number(r.program_id), partner_id: Number(r.partner_id), at, totals: {}, paid: [], netted: [] }),
      );
    return payout;
  };
  for (const r of rows) {
    if (r.paid_at !== null) {
      const p = payoutAt(r, Number(r.paid_at));
      const t = (p.totals[r.currency] ??= { amount_cents: 0, commissions: 0, clawbacks: 0, carried_cents: 0 });
      t.amount_cents += Number(r.amount_cents);
      t.commissions += 1;
      p.paid.push(Number(r.id));
    }
    if (r.clawback_settled_at !== null) {
      const p = payoutAt(r, Number(r.clawback_settled_at));
      const t = (p.totals[r.currency] ??= { amount_cents: 0, commissions: 0, clawbacks: 0, carried_cents: 0 });
      t.amount_cents -= Number(r.amount_cents);
      t.clawbacks += 1;
      p.netted.push(Number(r.id));
    }
  }
  for (const p of [...payouts.values()].sort((a, b) => a.at - b.at)) {
    const { id } = await db
      .insertInto('payouts')
      .values({
        program_id: p.program_id,
        partner_id: p.partner_id,
        through: p.at,
        totals: JSON.stringify(p.totals),
        created_by: 'system',
        created_at: p.at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (p.paid.length > 0)
      await db
        .updateTable('commissions')
        .set({ payout_id: Number(id) })
        .where('id', 'in', p.paid)
        .execute();
    if (p.netted.length > 0)
      await db
        .updateTable('commissions')
        .set({ clawback_payout_id: Number(id) })
        .where('id', 'in', p.netted)
        .execute();
  }
}
