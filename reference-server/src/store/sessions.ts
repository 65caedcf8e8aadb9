import type { Kysely, Selectable } from 'kysely';
import type { Database, LoginSessionsTable } from './schema';

type Db = Kysely<Database>;
export type LoginSession = Selectable<LoginSessionsTable>;

export async function insertLoginSession(db: Db, state: string, now: number): Promise<void> {
  await db.insertInto('login_sessions').values({ state, created_at: now }).execute();
}

export async function findLoginSession(db: Db, state: string): Promise<LoginSession | undefined> {
  // No state holds U+0000 (they are base64url); PostgreSQL would fail the query on it (a 500, not a 404).
  if (state.includes('\0')) return undefined;
  return db.selectFrom('login_sessions').selectAll().where('state', '=', state).executeTakeFirst();
}

/** Completes a session once; false when another request completed it first. */
export async function completeLoginSession(db: Db, id: number, accountId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('login_sessions')
    .set({ completed_at: now, account_id: accountId })
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
