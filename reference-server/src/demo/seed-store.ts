import type { LeadAuth } from '@svc/types';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema';

type Db = Kysely<Database>;

/** The demo's lookups and updates: the seed finds its own records by name so every start reuses them. */
export function findProgramByName(db: Db, workspaceId: number, name: string) {
  return db
    .selectFrom('programs')
    .select(['id', 'lead_auth'])
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .orderBy('id')
    .executeTakeFirst();
}

/** Stores a new key for the program (hash and last four only) and clears any rotation mark. */
export async function replaceProgramKey(db: Db, programId: number, key: { hash: string; last4: string }): Promise<void> {
  await db
    .updateTable('programs')
    .set({ api_key_hash: key.hash, api_key_last4: key.last4, key_marked_at: null, key_rotate_by: null })
    .where('id', '=', programId)
    .execute();
}

export async function setLeadAuth(db: Db, programId: number, leadAuth: LeadAuth): Promise<void> {
  await db.updateTable('programs').set({ lead_auth: leadAuth }).where('id', '=', programId).execute();
}

export async function setDomain(db: Db, programId: number, domain: string): Promise<void> {
  await db.updateTable('programs').set({ domain }).where('id', '=', programId).execute();
}

export async function findPartnerByName(db: Db, programId: number, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('partners')
    .select('id')
    .where('program_id', '=', programId)
    .where('name', '=', name)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}
