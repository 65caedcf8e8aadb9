import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

export interface NewAccount {
  accountId: number;
  advertiserId: number;
  workspaceId: number;
}

/**
 * An account with its advertiser, a workspace and the account's owner membership (spec/rules.md "Authentication": programs
 * belong to a workspace; its owner can regenerate keys).
 */
export async function createAccountWithWorkspace(
  db: Kysely<Database>,
  input: { email?: string; blocked?: boolean; identity?: { issuer: string; subject: string }; now: number },
): Promise<NewAccount> {
  const email = input.email ?? `dev-${randomBytes(6).toString('hex')}@example.test`;
  return db.transaction().execute(async (trx) => {
    const accountId = await insertAccount(trx, { ...input, email });
    return { accountId, ...(await addWorkspace(trx, { accountId, email, now: input.now })) };
  });
}

/** An account without a workspace: it sees only what it is invited to (SVC_WORKSPACE_CREATORS). */
export function createBareAccount(
  db: Kysely<Database>,
  input: { email: string; identity?: { issuer: string; subject: string }; now: number },
): Promise<number> {
  return insertAccount(db, input);
}

async function insertAccount(
  db: Kysely<Database>,
  input: { email: string; blocked?: boolean; identity?: { issuer: string; subject: string }; now: number },
): Promise<number> {
  const account = await db
    .insertInto('accounts')
    .values({
      email: input.email,
      blocked: input.blocked ? 1 : 0,
      created_at: input.now,
      oidc_issuer: input.identity?.issuer ?? null,
      oidc_subject: input.identity?.subject ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return account.id;
}

/** A workspace for an account that has none (it may create one now): its advertiser, workspace and owner membership. */
export function createWorkspaceFor(
  db: Kysely<Database>,
  input: { accountId: number; email: string; now: number },
): Promise<{ advertiserId: number; workspaceId: number }> {
  return db.transaction().execute((trx) => addWorkspace(trx, input));
}

async function addWorkspace(
  trx: Kysely<Database>,
  input: { accountId: number; email: string; now: number },
): Promise<{ advertiserId: number; workspaceId: number }> {
  const advertiser = await trx
    .insertInto('advertisers')
    .values({ account_id: input.accountId, name: input.email, created_at: input.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const workspace = await trx
    .insertInto('workspaces')
    .values({ advertiser_id: advertiser.id, name: `${input.email}'s workspace`, created_at: input.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('memberships')
    .values({ workspace_id: workspace.id, account_id: input.accountId, role: 'owner', active: 1, created_at: input.now })
    .execute();
  return { advertiserId: advertiser.id, workspaceId: workspace.id };
}

export async function hasAnyWorkspace(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** The account of the oldest workspace's advertiser: the bootstrap owner. */
export async function firstWorkspaceOwnerId(db: Kysely<Database>): Promise<number | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .innerJoin('advertisers', 'advertisers.id', 'workspaces.advertiser_id')
    .select('advertisers.account_id')
    .orderBy('workspaces.id')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.account_id);
}
