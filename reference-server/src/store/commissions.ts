import type { Currency } from '@svc/types';
import type { Kysely } from 'kysely';
import { batchId } from './batch-ids';
import { insertRow } from './compiled';
import type { Commission, CommissionStatus, Database } from './schema';

type Db = Kysely<Database>;

/** In a group-commit batch the id is taken first (store/batch-ids.ts), so the insert can be held with the batch's others. */
export async function insertCommission(
  db: Db,
  commission: {
    saleId: number;
    programId: number;
    partnerId: number;
    amountCents: number;
    currency: Currency;
    /** Set: the commission is `held` for this reason instead of `pending`. */
    holdReason?: 'partner_suspended';
    now: number;
  },
): Promise<number> {
  const row = {
    sale_id: commission.saleId,
    program_id: commission.programId,
    partner_id: commission.partnerId,
    amount_cents: commission.amountCents,
    currency: commission.currency,
    status: commission.holdReason ? 'held' : 'pending',
    // Always present, so a batch's held rows share one column list (store/deferred-inserts.ts).
    hold_reason: commission.holdReason ?? null,
    created_at: commission.now,
  } as const;
  const id = await batchId(db, 'commissions');
  if (id === undefined) return insertRow(db, 'commissions', row, true);
  await insertRow(db, 'commissions', { id, ...row });
  return id;
}

export function findCommissionOfSale(db: Db, saleId: number) {
  return db.selectFrom('commissions').selectAll().where('sale_id', '=', saleId).executeTakeFirst();
}

/** A refund takes back a `pending` or `held` commission; a declined one stays declined (it was never counted). */
export async function reverseCommission(db: Db, id: number, now: number): Promise<void> {
  await db
    .updateTable('commissions')
    .set({ status: 'reversed', reversed_at: now, hold_reason: null })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'held'])
    .execute();
}

/** The commission only when it belongs to the program and not to the test partner. */
export function findCommissionInProgram(db: Db, programId: number, id: number): Promise<Commission | undefined> {
  return db
    .selectFrom('commissions')
    .innerJoin('partners', 'partners.id', 'commissions.partner_id')
    .selectAll('commissions')
    .where('commissions.program_id', '=', programId)
    .where('commissions.id', '=', id)
    .where('partners.is_test', '=', 0)
    .executeTakeFirst();
}

export interface Decision {
  by: number | null;
  now: number;
}

/**
 * Moves one commission from one of `from` to `to` with the merchant's decision, in one conditional UPDATE: of two
 * decisions at once only one changes the row. Undefined when it was not in `from` (or was paid, for `pending`).
 */
export function decideCommission(
  db: Db,
  id: number,
  change: { from: CommissionStatus[]; to: 'pending' | 'declined'; reason?: string } & Decision,
): Promise<Commission | undefined> {
  return db
    .updateTable('commissions')
    .set({
      status: change.to,
      hold_reason: null,
      decided_by_account_id: change.by,
      decided_at: change.now,
      decline_reason: change.reason ?? null,
    })
    .where('id', '=', id)
    .where('status', 'in', change.from)
    .where('paid_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Releases the commissions held while the partner was suspended (held → pending, so due), recorded with who
 * reactivated the partner. One conditional UPDATE: a row is released once, however many reactivations race. Answers
 * the released rows' amounts (the audit entry's totals).
 */
export function releaseSuspendedHolds(db: Db, partnerId: number, decision: Decision) {
  return db
    .updateTable('commissions')
    .set({ status: 'pending', hold_reason: null, decided_by_account_id: decision.by, decided_at: decision.now })
    .where('partner_id', '=', partnerId)
    .where('status', '=', 'held')
    .where('hold_reason', '=', 'partner_suspended')
    .returning(['amount_cents', 'currency'])
    .execute();
}

/**
 * A program's commission totals by partner, currency and state (due, paid, reversed, open clawback), optionally
 * of one partner. One grouped read over the (program, partner) index; states as in `domain/partners/figures.ts`.
 */
export function commissionTotals(db: Db, programId: number, partnerId?: number) {
  let q = db
    .selectFrom('commissions')
    .select((eb) => [
      'partner_id',
      'currency',
      'status',
      eb.case().when('paid_at', 'is', null).then(0).else(1).end().as('paid'),
      eb.case().when('clawback_settled_at', 'is', null).then(0).else(1).end().as('settled'),
      eb.fn.sum<number>('amount_cents').as('cents'),
    ])
    .where('program_id', '=', programId);
  if (partnerId !== undefined) q = q.where('partner_id', '=', partnerId);
  return q.groupBy(['partner_id', 'currency', 'status', 'paid', 'settled']).execute();
}

/** One row per commission created in [from, to], with its sale and partner, oldest first (the CSV export). */
export function commissionsForExport(db: Db, query: { programId: number; from: number; to: number; partnerId?: number }) {
  let q = db
    .selectFrom('commissions')
    .innerJoin('sales', 'sales.id', 'commissions.sale_id')
    .innerJoin('partners', 'partners.id', 'commissions.partner_id')
    .select([
      'commissions.id',
      'commissions.partner_id',
      'partners.name as partner_name',
      'partners.email as partner_email',
      'commissions.sale_id',
      'sales.processor_event_id as transaction_id',
      'sales.amount_cents as sale_amount_cents',
      'commissions.amount_cents',
      'commissions.currency',
      'commissions.status',
      'sales.occurred_at as sale_at',
      'commissions.created_at',
      'commissions.paid_at',
      'commissions.reversed_at',
      'commissions.payout_id',
    ])
    .where('commissions.program_id', '=', query.programId)
    .where('partners.is_test', '=', 0)
    .where('commissions.created_at', '>=', query.from)
    .where('commissions.created_at', '<=', query.to);
  if (query.partnerId !== undefined) q = q.where('commissions.partner_id', '=', query.partnerId);
  return q.orderBy('commissions.id').execute();
}

/** What a payout may settle for a partner: due commissions created by `through`, and clawbacks reversed by then. */
export function payableCommissions(db: Db, programId: number, partnerId: number, through: number) {
  return db
    .selectFrom('commissions')
    .select(['id', 'amount_cents', 'currency', 'status'])
    .$narrowType<{ status: 'pending' | 'reversed' }>()
    .where('program_id', '=', programId)
    .where('partner_id', '=', partnerId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('paid_at', 'is', null), eb('created_at', '<=', through)]),
        eb.and([
          eb('status', '=', 'reversed'),
          eb('paid_at', 'is not', null),
          eb('clawback_settled_at', 'is', null),
          eb('reversed_at', '<=', through),
        ]),
      ]),
    )
    .execute();
}

export interface SettledCommission {
  id: number;
  amount_cents: number;
  currency: Currency;
  /** `pending`: a due commission now paid; `reversed`: a clawback now netted. */
  status: 'pending' | 'reversed';
}

/**
 * Marks due commissions paid and clawbacks settled by the payout, and answers the rows this call changed. The guards (`paid_at`
 * or `clawback_settled_at` still null) make a row that a concurrent payout settled first change nothing here: on
 * PostgreSQL the UPDATE waits for that payout's commit and re-checks them, so its rows are not returned twice.
 */
export async function settleCommissions(
  db: Db,
  ids: { due: number[]; clawbacks: number[] },
  payout: { id: number; now: number },
): Promise<SettledCommission[]> {
  const columns = ['id', 'amount_cents', 'currency', 'status'] as const;
  const settled: SettledCommission[] = [];
  if (ids.due.length > 0) {
    settled.push(
      ...(await db
        .updateTable('commissions')
        .set({ paid_at: payout.now, payout_id: payout.id })
        .where('id', 'in', ids.due)
        .where('paid_at', 'is', null)
        .where('status', '=', 'pending')
        .returning(columns)
        .$narrowType<{ status: 'pending' }>()
        .execute()),
    );
  }
  if (ids.clawbacks.length > 0) {
    settled.push(
      ...(await db
        .updateTable('commissions')
        .set({ clawback_settled_at: payout.now, clawback_payout_id: payout.id })
        .where('id', 'in', ids.clawbacks)
        .where('clawback_settled_at', 'is', null)
        .where('status', '=', 'reversed')
        .where('paid_at', 'is not', null)
        .returning(columns)
        .$narrowType<{ status: 'reversed' }>()
        .execute()),
    );
  }
  return settled;
}
