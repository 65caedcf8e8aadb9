import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from './schema';
import type { Insertable, Selectable } from 'kysely';

type Db = Kysely<Database>;
export type AuditRow = Selectable<AuditLogTable>;

/** Appends one entry; `db` is the transaction of the change it records, so both commit or neither. */
export async function insertAuditEntry(db: Db, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}

/** A program's entries newest first, below `beforeId` (the cursor), optionally of one action and about one target. */
export function listAuditEntries(
  db: Db,
  programId: number,
  page: { limit: number; beforeId?: number | undefined; action?: string | undefined; target?: string | undefined },
): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll().where('program_id', '=', programId);
  if (page.action !== undefined) q = q.where('action', '=', page.action);
  if (page.target !== undefined) q = q.where('target', '=', page.target);
  if (page.beforeId !== undefined) q = q.where('id', '<', page.beforeId);
  return q.orderBy('id', 'desc').limit(page.limit).execute();
}
