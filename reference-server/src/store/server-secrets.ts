import type { Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/**
 * The value stored under `name`, storing `candidate` first when there is none. Every instance on one database
 * reads the same value: the first writer wins, later ones read what it wrote.
 */
export async function storedSecret(db: Db, name: string, candidate: string, now: number): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: candidate, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
