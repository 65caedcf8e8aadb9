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

/** PostgreSQL when the project runs on it (a schema of its own, dropped afterwards), else a SQLite file. */
export function privateDatabase(label: string): PrivateDatabase {
  if (postgresUrl) {
    const schema = uniqueSchemaName(`svc_${label}`);
    const url = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}schema=${schema}`;
    return {
      url,
      kind: 'postgres',
      async dispose() {
        const client = new pg.Client({ connectionString: postgresUrl });
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
