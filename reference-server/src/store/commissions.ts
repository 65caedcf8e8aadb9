import type { Currency } from '@svc/types';
import { batchId, insertRow, type Db } from './engine';
import type { Commission } from './schema';

/** In a group-commit batch the id is taken first (store/engine/batch.ts), so the insert can be held with the batch's others. */
export async function insertCommission(
  db: Db,
  commission: {
    saleId: number;
    programId: number;
    partnerId: number;
    amountCents: number;
    currency: Currency;
    /** Set: the commission is `held` for this reason instead of `pending`. */
    holdReason?: 'partner_suspended' | 'risk';
    now: number;
    /** When the program's hold period ends (now, without one). */
    dueAt: number;
  },
): Promise<number> {
  const row = {
    sale_id: commission.saleId,
    program_id: commission.programId,
    partner_id: commission.partnerId,
    amount_cents: commission.amountCents,
    currency: commission.currency,
    status: commission.holdReason ? 'held' : 'pending',
    // Always present, so a batch's held rows share one column list (store/engine/deferred-inserts.ts).
    hold_reason: commission.holdReason ?? null,
    created_at: commission.now,
    due_at: commission.dueAt,
  } as const;
  const id = await batchId(db, 'commissions');
  if (id === undefined) return insertRow(db, 'commissions', row, true);
  await insertRow(db, 'commissions', { id, ...row });
  return id;
}

export function findCommissionOfSale(db: Db, saleId: number) {
  return db.selectFrom('commissions').selectAll().where('sale_id', '=', saleId).executeTakeFirst();
}

/**
 * A refund takes back a `pending` or `held` commission (paid or not, hold running or not); a declined one stays
 * declined (it was never counted). The row as it is after, when this call reversed it.
 */
export function reverseCommission(db: Db, id: number, now: number): Promise<Commission | undefined> {
  return db
    .updateTable('commissions')
    .set({ status: 'reversed', reversed_at: now, hold_reason: null })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'held'])
    .returningAll()
    .executeTakeFirst();
}

/** A commission with its sale's transaction id (null for an adjustment). */
export type CommissionRow = Commission & { transaction_id: string | null };

function commissionsWithSale(db: Db) {
  return db
    .selectFrom('commissions')
    .innerJoin('partners', 'partners.id', 'commissions.partner_id')
    .leftJoin('sales', 'sales.id', 'commissions.sale_id')
    .selectAll('commissions')
    .select('sales.processor_event_id as transaction_id')
    .where('partners.is_test', '=', 0);
}

/** The commission only when it belongs to the program and not to the test partner. */
export function findCommissionInProgram(db: Db, programId: number, id: number): Promise<CommissionRow | undefined> {
  return commissionsWithSale(db).where('commissions.program_id', '=', programId).where('commissions.id', '=', id).executeTakeFirst();
}

/** How a wire status reads from the stored one at `now` (domain/commissions/status.ts). */
export type StatusFilter = 'pending' | 'held' | 'due' | 'paid' | 'reversed' | 'declined';

/**
 * A page of a program's commissions, newest first (by id, so a page never shifts when new ones arrive): those with
 * an id below `beforeId`, `limit` of them, optionally of one partner, one wire status at `now`, created in [from, to].
 */
export function listCommissions(
  db: Db,
  query: {
    programId: number;
    now: number;
    limit: number;
    beforeId?: number;
    partnerId?: number;
    status?: StatusFilter;
    from?: number;
    to?: number;
  },
): Promise<CommissionRow[]> {
  let q = commissionsWithSale(db).where('commissions.program_id', '=', query.programId);
  if (query.beforeId !== undefined) q = q.where('commissions.id', '<', query.beforeId);
  if (query.partnerId !== undefined) q = q.where('commissions.partner_id', '=', query.partnerId);
  if (query.from !== undefined) q = q.where('commissions.created_at', '>=', query.from);
  if (query.to !== undefined) q = q.where('commissions.created_at', '<=', query.to);
  const status = query.status;
  if (status === 'held' || status === 'reversed' || status === 'declined') q = q.where('commissions.status', '=', status);
  else if (status !== undefined) {
    q = q.where('commissions.status', '=', 'pending');
    if (status === 'paid') q = q.where('commissions.paid_at', 'is not', null);
    else q = q.where('commissions.paid_at', 'is', null).where('commissions.due_at', status === 'due' ? '<=' : '>', query.now);
  }
  return q.orderBy('commissions.id', 'desc').limit(query.limit).execute();
}

/** A partner's latest commissions in a program, newest first (the partner view). */
export function latestCommissionsOfPartner(db: Db, programId: number, partnerId: number, limit: number) {
  return db
    .selectFrom('commissions')
    .select(['id', 'kind', 'status', 'paid_at', 'due_at', 'amount_cents', 'currency', 'created_at'])
    .where('program_id', '=', programId)
    .where('partner_id', '=', partnerId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** An adjustment: a commission with no sale, due at once (`due_at` = now). */
export function insertAdjustment(
  db: Db,
  adjustment: { programId: number; partnerId: number; amountCents: number; currency: Currency; by: number | null; now: number },
): Promise<Commission> {
  return db
    .insertInto('commissions')
    .values({
      sale_id: null,
      kind: 'adjustment',
      program_id: adjustment.programId,
      partner_id: adjustment.partnerId,
      amount_cents: adjustment.amountCents,
      currency: adjustment.currency,
      status: 'pending',
      created_at: adjustment.now,
      due_at: adjustment.now,
      reversed_at: null,
      decided_by_account_id: adjustment.by,
      decided_at: adjustment.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface Decision {
  by: number | null;
  now: number;
}

/**
 * Moves one unpaid commission with the merchant's decision, in one conditional UPDATE: of two decisions at once only
 * one changes the row. `from` lists the stored statuses it may leave; a stored `pending` one only while its hold runs
 * (`due_at` after now) when `pendingInHold`. Approving (`to: 'pending'`) makes it due now (`due_at` = now).
 * Undefined when the row was not in a state it may leave.
 */
export function decideCommission(
  db: Db,
  id: number,
  change: { from: ('held' | 'pending')[]; pendingInHold?: boolean; to: 'pending' | 'declined'; reason?: string } & Decision,
): Promise<Commission | undefined> {
  return db
    .updateTable('commissions')
    .set({
      status: change.to,
      hold_reason: null,
      decided_by_account_id: change.by,
      decided_at: change.now,
      decline_reason: change.reason ?? null,
      ...(change.to === 'pending' ? { due_at: change.now } : {}),
    })
    .where('id', '=', id)
    .where('paid_at', 'is', null)
    .where((eb) =>
      eb.or(
        change.from.map((from) =>
          from === 'pending' && change.pendingInHold
            ? eb.and([eb('status', '=', 'pending'), eb('due_at', '>', change.now)])
            : eb('status', '=', from),
        ),
      ),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Releases the commissions held while the partner was suspended (held → pending: due, or pending while the
 * program's hold period still runs), recorded with who reactivated the partner. One conditional UPDATE: a row is
 * released once, however many reactivations race. Answers the released rows (their `commission.updated` events and
 * the audit entry's totals).
 */
export function releaseSuspendedHolds(db: Db, partnerId: number, decision: Decision): Promise<Commission[]> {
  return db
    .updateTable('commissions')
    .set({ status: 'pending', hold_reason: null, decided_by_account_id: decision.by, decided_at: decision.now })
    .where('partner_id', '=', partnerId)
    .where('status', '=', 'held')
    .where('hold_reason', '=', 'partner_suspended')
    .returningAll()
    .execute();
}

/**
 * A program's commission totals by partner, currency and state (due or still in its hold at `now`, paid, reversed,
 * open clawback), optionally of one partner. One grouped read over the (program, partner) index; states as in
 * `domain/partners/figures.ts`.
 */
export function commissionTotals(db: Db, now: number, programId: number, partnerId?: number) {
  let q = db
    .selectFrom('commissions')
    .select((eb) => [
      'partner_id',
      'currency',
      'status',
      eb.case().when('paid_at', 'is', null).then(0).else(1).end().as('paid'),
      eb.case().when('clawback_settled_at', 'is', null).then(0).else(1).end().as('settled'),
      eb.case().when('due_at', '<=', now).then(1).else(0).end().as('due'),
      eb.fn.sum<number>('amount_cents').as('cents'),
    ])
    .where('program_id', '=', programId);
  if (partnerId !== undefined) q = q.where('partner_id', '=', partnerId);
  return q.groupBy(['partner_id', 'currency', 'status', 'paid', 'settled', 'due']).execute();
}

/** One row per commission created in [from, to], with its sale (none for an adjustment) and partner, oldest first (the CSV export). */
export function commissionsForExport(db: Db, query: { programId: number; from: number; to: number; partnerId?: number }) {
  let q = db
    .selectFrom('commissions')
    .leftJoin('sales', 'sales.id', 'commissions.sale_id')
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
      'commissions.kind',
      'commissions.created_at',
      'commissions.due_at',
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

/**
 * What a payout may settle for a partner at `now`: due commissions (hold over: `due_at` by now) created by `through`,
 * adjustments of either sign among them, and clawbacks reversed by then.
 */
export function payableCommissions(db: Db, programId: number, partnerId: number, through: number, now: number) {
  return db
    .selectFrom('commissions')
    .select(['id', 'amount_cents', 'currency', 'status'])
    .$narrowType<{ status: 'pending' | 'reversed' }>()
    .where('program_id', '=', programId)
    .where('partner_id', '=', partnerId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('paid_at', 'is', null), eb('created_at', '<=', through), eb('due_at', '<=', now)]),
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
