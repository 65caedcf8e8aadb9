import type { Kysely } from 'kysely';
import type { Database, Program, ProgramUpdate } from './schema';

type Db = Kysely<Database>;

/** Updates a program's settings and returns it as stored. */
export async function updateProgram(db: Db, programId: number, values: ProgramUpdate): Promise<Program> {
  return db.updateTable('programs').set(values).where('id', '=', programId).returningAll().executeTakeFirstOrThrow();
}
