import SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/**
 * A second, read-only connection to a SQLite file store, for the hot path's reads outside a transaction (a sale's
 * duplicate check and customer, a lead's click: store/compiled.ts sends its `select`s here). Behind Kysely, a
 * SQLite store is one connection with a mutex, which a group-commit batch holds from `BEGIN` to `COMMIT`: a request
 * that read before queueing its writes waited for the batch in flight, then queued behind it, and every request
 * took about two batches' time, more at the tail (BENCHMARKS.md, "A reader beside the writer"). In WAL mode a
 * reader sees the last COMMIT and never waits for the writer, so the read answers at once, as a PostgreSQL pooled
 * connection would: committed rows only, never a batch's rows before their COMMIT.
 */
export class SqliteReader {
  private readonly sqlite: SqliteDatabase.Database;
  private readonly statements = new Map<string, SqliteDatabase.Statement>();

  constructor(file: string) {
    this.sqlite = new SqliteDatabase(file, { readonly: true });
    this.sqlite.pragma('busy_timeout = 5000');
  }

  async read<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> {
    let statement = this.statements.get(query.sql);
    if (!statement) {
      // The compiled queries are a small fixed set (store/compiled.ts); the bound guards against any other caller.
      if (this.statements.size >= 200) this.statements.clear();
      statement = this.sqlite.prepare(query.sql);
      this.statements.set(query.sql, statement);
    }
    return { rows: statement.all(query.parameters) as R[] };
  }

  close(): void {
    this.sqlite.close();
  }
}

const readers = new WeakMap<Db, SqliteReader>();

export function attachReader(db: Db, reader: SqliteReader): void {
  readers.set(db, reader);
}

/** The store's reader when `db` is a SQLite file store (not one of its transactions), else undefined. */
export function readerOf(db: Db): SqliteReader | undefined {
  return readers.get(db);
}
