import type { Kysely, Selectable } from 'kysely';
import type { Database, ProcessorConnectStatesTable } from './schema';

type Db = Kysely<Database>;
export type ProcessorConnectState = Selectable<ProcessorConnectStatesTable>;

/** Stores a new attempt; attempts begun before `expiredBefore` can no longer be used and go. */
export async function insertConnectState(
  db: Db,
  attempt: { stateHash: string; accountId: number; programId: number; now: number; expiredBefore: number },
): Promise<void> {
  await db.deleteFrom('processor_connect_states').where('created_at', '<', attempt.expiredBefore).execute();
  await db
    .insertInto('processor_connect_states')
    .values({ state_hash: attempt.stateHash, account_id: attempt.accountId, program_id: attempt.programId, created_at: attempt.now })
    .execute();
}

export function findConnectState(db: Db, stateHash: string): Promise<ProcessorConnectState | undefined> {
  return db.selectFrom('processor_connect_states').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
}

/** Uses an attempt once; false when it was already used (a replayed callback, or two at once). */
export async function useConnectState(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('processor_connect_states')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
