import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

export interface NewAccount {
  accountId: number;
  advertiserId: number;
  workspaceId: number;
}

/**
 * An account with its advertiser, a workspace and the account's owner membership (§Authentication: programs
 * belong to a workspace; its owner can regenerate keys).
 */
export async function createAccountWithWorkspace(
  db: Kysely<Database>,
  input: { email?: string; blocked?: boolean; identity?: { issuer: string; subject: string }; now: number },
): Promise<NewAccount> {
  const email = input.email ?? `dev-${randomBytes(6).toString('hex')}@example.test`;
  return db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('accounts')
      .values({
        email,
        blocked: input.blocked ? 1 : 0,
        created_at: input.now,
        oidc_issuer: input.identity?.issuer ?? null,
        oidc_subject: input.identity?.subject ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const advertiser = await trx
      .insertInto('advertisers')
      .values({ account_id: account.id, name: email, created_at: input.now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const workspace = await trx
      .insertInto('workspaces')
      .values({ advertiser_id: advertiser.id, name: `${email}'s workspace`, created_at: input.now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('memberships')
      .values({ workspace_id: workspace.id, account_id: account.id, role: 'owner', active: 1, created_at: input.now })
      .execute();
    return { accountId: account.id, advertiserId: advertiser.id, workspaceId: workspace.id };
  });
}
