import type { Kysely, Selectable } from 'kysely';
import type { Database, SignInAttemptsTable } from './schema';

type Db = Kysely<Database>;
export type SignInAttempt = Selectable<SignInAttemptsTable>;

export async function insertSignInAttempt(
  db: Db,
  attempt: { stateHash: string; nonce: string; codeVerifier: string; cliStateHash: string | null; now: number },
): Promise<void> {
  await db
    .insertInto('sign_in_attempts')
    .values({
      state_hash: attempt.stateHash,
      nonce: attempt.nonce,
      code_verifier: attempt.codeVerifier,
      cli_state_hash: attempt.cliStateHash,
      created_at: attempt.now,
    })
    .execute();
}

export function findSignInAttempt(db: Db, stateHash: string): Promise<SignInAttempt | undefined> {
  return db.selectFrom('sign_in_attempts').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
}

/** Uses an attempt once; false when it was already used (a replayed callback). */
export async function useSignInAttempt(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sign_in_attempts')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
