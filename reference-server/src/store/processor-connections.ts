import type { Kysely } from 'kysely';
import type { Database, Program } from './schema';
import { isUniqueViolation } from './unique-violation';

/** The program connected to a processor account (spec/rules.md "What the service does", item 7), if any. */
export async function findProgramByProcessorAccount(db: Kysely<Database>, account: string): Promise<Program | undefined> {
  return db.selectFrom('programs').selectAll().where('processor_account', '=', account).executeTakeFirst();
}

export type ConnectResult = 'connected' | 'program_not_found' | 'account_taken';

/**
 * Stores the connected-account id on the program (replacing an earlier one). One account belongs to one
 * program (UNIQUE), so the webhook's `account` always names a single program.
 */
export async function connectProcessorAccount(db: Kysely<Database>, programId: number, account: string): Promise<ConnectResult> {
  try {
    const result = await db.updateTable('programs').set({ processor_account: account }).where('id', '=', programId).executeTakeFirst();
    return result.numUpdatedRows > 0n ? 'connected' : 'program_not_found';
  } catch (error) {
    if (isUniqueViolation(error)) return 'account_taken';
    throw error;
  }
}

/**
 * Inside the bind's transaction: moves a connected account proven by the owner's "Connect with Stripe" consent from
 * any program that held it to this one, so an earlier claim never blocks its owner. Answers what it replaced (the
 * program's earlier account, the programs that lost this one) for the audit log. Two proven binds of one account at
 * once: the UNIQUE column makes one wait and fail (`domain/processor/connect/bind.ts` runs it again).
 */
export async function moveProcessorAccount(
  trx: Kysely<Database>,
  programId: number,
  account: string,
): Promise<{ previous: string | null; movedFrom: number[] }> {
  const before = await trx.selectFrom('programs').select('processor_account').where('id', '=', programId).executeTakeFirst();
  const moved = await trx
    .updateTable('programs')
    .set({ processor_account: null })
    .where('processor_account', '=', account)
    .where('id', '<>', programId)
    .returning('id')
    .execute();
  await trx.updateTable('programs').set({ processor_account: account }).where('id', '=', programId).execute();
  return { previous: before?.processor_account ?? null, movedFrom: moved.map((row) => row.id) };
}

/** Clears the program's connected account (the dashboard's Disconnect; `db` is its transaction). */
export async function unbindProcessorAccount(db: Kysely<Database>, programId: number): Promise<void> {
  await db.updateTable('programs').set({ processor_account: null }).where('id', '=', programId).execute();
}
