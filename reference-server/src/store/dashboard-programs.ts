import type { Kysely } from 'kysely';
import type { Database, Program, ProgramUpdate } from './schema';

type Db = Kysely<Database>;

/** Updates a program's settings and returns it as stored. */
export async function updateProgram(db: Db, programId: number, values: ProgramUpdate): Promise<Program> {
  return db.updateTable('programs').set(values).where('id', '=', programId).returningAll().executeTakeFirstOrThrow();
}

/**
 * The program as stored, read past the lookup cache: inside a change's transaction (after `lockRow`), the values
 * that change replaces, for its audit entry.
 */
export function programForChange(db: Db, programId: number): Promise<Program> {
  return db.selectFrom('programs').selectAll().where('id', '=', programId).executeTakeFirstOrThrow();
}
