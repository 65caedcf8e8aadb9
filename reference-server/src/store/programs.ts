import type { Kysely } from 'kysely';
import { cachedLookup } from './engine';
import type { Database, NewProgram, Program } from './schema';

type Db = Kysely<Database>;

/** Through the lookup cache (store/engine/lookup-cache.ts): the returned row is frozen. */
export function findProgramById(db: Db, id: number): Promise<Program | undefined> {
  return cachedLookup(db, `program:${id}`, () => db.selectFrom('programs').selectAll().where('id', '=', id).executeTakeFirst());
}

/** Inserts a program and its (zeroed) metrics row, in one transaction. */
/** The program whose key hashes to `hash` (unique index on `api_key_hash`). */
export function findProgramByKeyHash(db: Db, hash: string): Promise<Program | undefined> {
  return cachedLookup(db, `key:${hash}`, () => db.selectFrom('programs').selectAll().where('api_key_hash', '=', hash).executeTakeFirst());
}

export async function insertProgram(db: Db, values: NewProgram): Promise<Program> {
  return db.transaction().execute(async (trx) => {
    const program = await trx.insertInto('programs').values(values).returningAll().executeTakeFirstOrThrow();
    await trx.insertInto('program_metrics').values({ program_id: program.id }).execute();
    return program;
  });
}

export async function markKeyRotation(db: Db, id: number, markedAt: number, rotateBy: number): Promise<void> {
  await db.updateTable('programs').set({ key_marked_at: markedAt, key_rotate_by: rotateBy }).where('id', '=', id).execute();
}

/** `allowed_origins` is stored as a JSON array; null means any origin (spec/rules.md "Authentication" rule 6). */
export function allowedOriginsOf(program: Pick<Program, 'allowed_origins'>): string[] | null {
  if (program.allowed_origins === null) return null;
  const parsed: unknown = JSON.parse(program.allowed_origins);
  return Array.isArray(parsed) ? parsed.filter((o): o is string => typeof o === 'string') : null;
}
