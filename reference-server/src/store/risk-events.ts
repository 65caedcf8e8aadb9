import { type Kysely, sql } from 'kysely';
import { cachedLookup } from './engine';
import type { Database, RiskEventRow, RiskEventsTable } from './schema';

type Db = Kysely<Database>;

/** Records a risk event in `db` (the transaction of what raised it); its id. */
export async function insertRiskEvent(db: Db, event: Omit<RiskEventsTable, 'id'>): Promise<number> {
  const row = await db.insertInto('risk_events').values(event).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Adds `kind` to the partner's flagged kinds (one statement: racing flags never lose one another's). */
export async function flagPartner(db: Db, partnerId: number, kind: RiskEventsTable['kind']): Promise<void> {
  await db
    .updateTable('partners')
    .set({ risk_kinds: sql<string>`case when risk_kinds is null or risk_kinds = '' then ${kind} else risk_kinds || ',' || ${kind} end` })
    .where('id', '=', partnerId)
    .where((eb) => eb.or([eb('risk_kinds', 'is', null), eb(sql`',' || risk_kinds || ','`, 'not like', `%,${kind},%`)]))
    .execute();
}

/** A page of the program's risk events, newest first (by id): those below `beforeId`, optionally of one partner or kind. */
export function listRiskEvents(
  db: Db,
  query: { programId: number; limit: number; beforeId?: number; partnerId?: number; kind?: RiskEventsTable['kind'] },
): Promise<RiskEventRow[]> {
  let q = db.selectFrom('risk_events').selectAll().where('program_id', '=', query.programId);
  if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
  if (query.partnerId !== undefined) q = q.where('partner_id', '=', query.partnerId);
  if (query.kind !== undefined) q = q.where('kind', '=', query.kind);
  return q.orderBy('id', 'desc').limit(query.limit).execute();
}

/** How many risk events each partner of the program has (the partners list's count). */
export async function riskCountsByPartner(db: Db, programId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('risk_events')
    .select((eb) => ['partner_id', eb.fn.countAll<number>().as('count')])
    .where('program_id', '=', programId)
    .groupBy('partner_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.partner_id), Number(r.count)]));
}

/**
 * The program's partners with an email (not the test partner): the shared-identity signal compares addresses. Through
 * the store's lookup cache (store/lookup-cache.ts: any write to partners empties it), so a lead reads it once per
 * program until a partner changes. `store` holds the cache; `trx` reads on a miss (in a batch, its transaction).
 */
export async function partnerEmails(store: Db, trx: Db, programId: number): Promise<{ id: number; email: string }[]> {
  return (await cachedLookup(store, `partner-emails:${programId}`, () => partnerEmailsNow(trx, programId))) ?? [];
}

/** As `partnerEmails`, read in `db` (a partner change's transaction) past the cache. */
export function partnerEmailsNow(db: Db, programId: number): Promise<{ id: number; email: string }[]> {
  return db
    .selectFrom('partners')
    .select(['id', 'email'])
    .where('program_id', '=', programId)
    .where('is_test', '=', 0)
    .where('email', 'is not', null)
    .$narrowType<{ email: string }>()
    .execute();
}
