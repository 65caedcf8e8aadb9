import type { Kysely } from 'kysely';
import type { Database, Program } from './schema';
import { isUniqueViolation } from './unique-violation';

/** The program connected to a processor account (§What the service does, item 7), if any. */
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
