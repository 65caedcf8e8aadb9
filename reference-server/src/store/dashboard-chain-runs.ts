import type { Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/** Chains of a program started at or after `since`: their count and the oldest start. */
export async function chainRunsSince(db: Db, programId: number, since: number): Promise<{ count: number; oldest: number | null }> {
  const row = await db
    .selectFrom('chain_runs')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min<number>('created_at').as('oldest')])
    .where('program_id', '=', programId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
}

export async function insertChainRun(db: Db, programId: number, now: number): Promise<void> {
  await db.insertInto('chain_runs').values({ program_id: programId, created_at: now }).execute();
}
