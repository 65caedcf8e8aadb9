import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { uniqueSchemaName } from '../../src/store/db';

export interface PrivateDatabase {
  /** A DATABASE_URL for spawned servers: a private PostgreSQL schema, or a SQLite file in a fresh directory. */
  url: string;
  kind: 'postgres' | 'sqlite';
  /** The SQLite file (sqlite only). */
  file?: string;
  dispose(): Promise<void>;
}

export const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/**
 * PostgreSQL at `postgres` (a schema of its own, dropped afterwards), else a SQLite file. Tests default to the
 * project's store; the benchmark names each store explicitly, whatever DATABASE_URL holds.
 */
export function privateDatabase(label: string, postgres: string | undefined = postgresUrl): PrivateDatabase {
  if (postgres) {
    const schema = uniqueSchemaName(`svc_${label}`);
    const url = `${postgres}${postgres.includes('?') ? '&' : '?'}schema=${schema}`;
    return {
      url,
      kind: 'postgres',
      async dispose() {
        const client = new pg.Client({ connectionString: postgres });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `svc-${label}-`));
  const file = join(dir, 'svc.sqlite');
  return { url: `sqlite:${file}`, kind: 'sqlite', file, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}
