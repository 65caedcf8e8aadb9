import type { Kysely, Selectable } from 'kysely';
import type { Database, LoginSessionsTable } from './schema';

type Db = Kysely<Database>;
export type LoginSession = Selectable<LoginSessionsTable>;

export async function insertLoginSession(db: Db, session: { stateHash: string; userCode: string; now: number }): Promise<void> {
  await db
    .insertInto('login_sessions')
    .values({ state_hash: session.stateHash, user_code: session.userCode, created_at: session.now })
    .execute();
}

export function findLoginSession(db: Db, stateHash: string): Promise<LoginSession | undefined> {
  return db.selectFrom('login_sessions').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
}

export function findLoginSessionToConfirm(db: Db, confirmHash: string): Promise<LoginSession | undefined> {
  return db.selectFrom('login_sessions').selectAll().where('confirm_hash', '=', confirmHash).executeTakeFirst();
}

/** Records who signed in at the identity provider; the session completes only when they press Authorize. */
export async function awaitConfirmation(db: Db, id: number, accountId: number, confirmHash: string): Promise<boolean> {
  const result = await db
    .updateTable('login_sessions')
    .set({ pending_account_id: accountId, confirm_hash: confirmHash })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Completes a session once; false when another request completed it first. */
export async function completeLoginSession(db: Db, id: number, accountId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('login_sessions')
    .set({ completed_at: now, account_id: accountId, confirm_hash: null })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks the session's token as handed out; false when a concurrent poll already took it. */
export async function consumeLoginSession(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('login_sessions')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface StoredToken {
  tokenHash: string;
  accountId: number;
  now: number;
  expiresAt: number;
}

export async function insertLoginToken(db: Db, token: StoredToken): Promise<void> {
  await db
    .insertInto('login_tokens')
    .values({ token_hash: token.tokenHash, account_id: token.accountId, created_at: token.now, expires_at: token.expiresAt })
    .execute();
}

export function findLoginToken(db: Db, tokenHash: string) {
  return db.selectFrom('login_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function insertDashboardSession(db: Db, session: StoredToken): Promise<void> {
  await db
    .insertInto('dashboard_sessions')
    .values({
      token_hash: session.tokenHash,
      account_id: session.accountId,
      created_at: session.now,
      expires_at: session.expiresAt,
    })
    .execute();
}

export function findDashboardSession(db: Db, tokenHash: string) {
  return db.selectFrom('dashboard_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function deleteDashboardSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}
