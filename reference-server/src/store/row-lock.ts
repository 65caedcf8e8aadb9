import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Inside a transaction: holds the row until the transaction ends, so that work serialised on it (a partner's
 * payouts, a program's endpoint cap) runs one at a time. On PostgreSQL the row is locked `FOR NO KEY UPDATE` (inserts
 * referencing it still pass). SQLite runs one transaction at a time (one connection), so there is nothing to lock.
 */
export async function lockRow(db: Kysely<Database>, table: 'programs' | 'partners' | 'workspaces', id: number): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.selectFrom(table).select('id').where('id', '=', id).forNoKeyUpdate().execute();
}
