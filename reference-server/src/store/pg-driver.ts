import { createRequire } from 'node:module';
import type pgModule from 'pg';

type Pg = typeof pgModule;
let loaded: Pg | undefined;

/**
 * pg, loaded on first use rather than on import, so a server on SQLite never loads it
 * (test/start-up/drivers.test.ts). pg is CommonJS, so `require` loads it synchronously and the PostgreSQL-only
 * helpers that call this (store/literals.ts) stay synchronous.
 */
export function pgDriver(): Pg {
  if (loaded) return loaded;
  const pg = createRequire(import.meta.url)('pg') as Pg;
  // int8 (bigint) and numeric come back from pg as strings; every such column here holds an integer that
  // fits in a double (epoch ms, cents, ids), so parse them once at the driver.
  pg.types.setTypeParser(20, (v) => Number(v));
  loaded = pg;
  return pg;
}

/** An error pg raised for a statement PostgreSQL answered with an error; never one while pg is not loaded. */
export function isPgDatabaseError(error: unknown): error is pgModule.DatabaseError {
  return loaded !== undefined && error instanceof loaded.DatabaseError;
}
