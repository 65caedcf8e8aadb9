import { PostgresAdapter, type Kysely } from 'kysely';
import { compiled, cachedLookup } from './engine';
import type { Database, Partner, PartnerInvitation } from './schema';

type Db = Kysely<Database>;

/** `isTest`: the CLI's test partner (`domain/cli/test-fixture.ts`), left out of every partner read below. */
export async function insertPartner(
  db: Db,
  values: {
    programId: number;
    name: string;
    email?: string | null;
    isTest?: boolean;
    /** `accepted` by default (no one to ask: the test partner, test control); a merchant's invitation is `pending`. */
    invitation?: PartnerInvitation;
    invitedBy?: number | null;
    now: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('partners')
    .values({
      program_id: values.programId,
      name: values.name,
      email: values.email ?? null,
      is_test: values.isTest ? 1 : 0,
      invitation: values.invitation ?? 'accepted',
      invited_by_account_id: values.invitedBy ?? null,
      created_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const partnerById = compiled<{ id: number }, Partner>((db, $) => db.selectFrom('partners').selectAll().where('id', '=', $('id')));

export async function findPartnerById(db: Db, id: number): Promise<Partner | undefined> {
  return (await partnerById(db, { id })).rows[0];
}

/**
 * The partner by id through the store's lookup cache (store/engine/lookup-cache.ts: any write to partners empties it). A miss
 * is read in `trx`, the caller's transaction: a group-commit batch holds the store's connection (on SQLite its only
 * one), so a read through `store` would wait for the batch that waits for it.
 */
export function findPartnerCached(store: Db, trx: Db, id: number): Promise<Partner | undefined> {
  return cachedLookup(store, `partner:${id}`, () => findPartnerById(trx, id));
}

/**
 * Inside a sale's transaction: whether the partner is suspended as committed now, for a sale whose cached read
 * said so (a reactivation elsewhere may have committed since). On PostgreSQL the row is read `FOR SHARE`: a
 * reactivation in flight is waited for and then seen, and one that starts later waits for this sale's commit, so
 * its release (`releaseSuspendedHolds`) sees the held commission. SQLite runs one transaction at a time.
 */
export async function partnerSuspendedNow(trx: Db, id: number): Promise<boolean> {
  let query = trx.selectFrom('partners').select('status').where('id', '=', id);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forShare();
  return (await query.executeTakeFirst())?.status === 'suspended';
}

/** The partner only when it belongs to the program (another program's partner, and the test partner, are "not found"). */
export function findPartnerInProgram(db: Db, programId: number, id: number): Promise<Partner | undefined> {
  return db
    .selectFrom('partners')
    .selectAll()
    .where('program_id', '=', programId)
    .where('id', '=', id)
    .where('is_test', '=', 0)
    .executeTakeFirst();
}

/** The program's partners, oldest first; never the test partner. */
export function listPartners(db: Db, programId: number): Promise<Partner[]> {
  return db.selectFrom('partners').selectAll().where('program_id', '=', programId).where('is_test', '=', 0).orderBy('id').execute();
}

/**
 * The partners an email was invited as and has not declined, across programs (the partner view's join with the
 * signed-in account), with who invited it: the inviting dashboard account, else (the program key) the program's owner.
 */
export function partnersByEmail(db: Db, email: string) {
  return db
    .selectFrom('partners')
    .innerJoin('programs', 'programs.id', 'partners.program_id')
    .innerJoin('advertisers', 'advertisers.id', 'programs.advertiser_id')
    .innerJoin('accounts as owner', 'owner.id', 'advertisers.account_id')
    .leftJoin('accounts as inviter', 'inviter.id', 'partners.invited_by_account_id')
    .selectAll('partners')
    .select((eb) => [
      'programs.name as program_name',
      'programs.domain as program_domain',
      'programs.commission_type as program_commission_type',
      'programs.commission_rate as program_commission_rate',
      eb.fn.coalesce('inviter.email', 'owner.email').as('inviter_email'),
    ])
    .where('partners.email', '=', email)
    .where('partners.invitation', '!=', 'declined')
    .where('partners.is_test', '=', 0)
    .orderBy('partners.id')
    .execute();
}

/**
 * The invitation of `email` as partner `id` moves from one of `from` to `to`; undefined when the partner is not
 * this email's or its invitation is in none of `from`. One conditional UPDATE, so racing answers settle once.
 */
export function answerInvitation(
  db: Db,
  change: { id: number; email: string; from: PartnerInvitation[]; to: PartnerInvitation },
): Promise<Partner | undefined> {
  return db
    .updateTable('partners')
    .set({ invitation: change.to })
    .where('id', '=', change.id)
    .where('email', '=', change.email)
    .where('is_test', '=', 0)
    .where('invitation', 'in', change.from)
    .returningAll()
    .executeTakeFirst();
}

/** The partner when it is this email's (any invitation state). */
export function findPartnerOfEmail(db: Db, id: number, email: string): Promise<Partner | undefined> {
  return db.selectFrom('partners').selectAll().where('id', '=', id).where('email', '=', email).where('is_test', '=', 0).executeTakeFirst();
}

export async function updatePartner(
  db: Db,
  id: number,
  update: {
    name?: string;
    email?: string | null;
    status?: 'active' | 'suspended';
    invitation?: PartnerInvitation;
    invited_by_account_id?: number | null;
    commission_type?: Partner['commission_type'];
    commission_rate?: number | null;
  },
): Promise<Partner> {
  return db.updateTable('partners').set(update).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
