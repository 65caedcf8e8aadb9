import { CompiledQuery, type QueryResult } from 'kysely';
import { inlined, isLiteralStatement } from './literals';
import { isPgDatabaseError } from '../pg-driver';
import { writesCachedTables } from './lookup-cache';

type Execute = (query: CompiledQuery) => Promise<QueryResult<unknown>>;

/**
 * Opens a text of several statements that `RoundTrips` joined. The store's PostgreSQL client reads it
 * (`watchStatements` in store/db.ts): such a text answers with one row per statement, that statement's answer
 * (`JoinedAnswer`), and its statements never change what the lookup cache holds (`joinable` below).
 */
export const JOINED = '/* svc: joined */ ';

/** One statement's answer in a joined text: its rows, and for a write how many rows it changed. */
export interface JoinedAnswer {
  rows: unknown[];
  command: string;
  rowCount: number | null;
}

const writeCommands = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** As Kysely answers one statement alone: `numAffectedRows` for a write (a conditional update reads it). */
function answerOf(answer: JoinedAnswer | undefined): QueryResult<unknown> {
  if (!answer) return { rows: [] };
  return writeCommands.has(answer.command) ? { rows: answer.rows, numAffectedRows: BigInt(answer.rowCount ?? 0) } : { rows: answer.rows };
}

interface Entry {
  query: CompiledQuery;
  /** The statement as text with its values written in (store/engine/literals.ts), when it can share a text; else undefined. */
  text: string | undefined;
  /** Undefined for a deferred statement: nobody waits for its answer; its error reaches the statements after it. */
  settle?: { resolve(result: QueryResult<unknown>): void; reject(error: unknown): void };
}

/**
 * PostgreSQL batch connections (store/engine/group-commit.ts): fewer round trips for the same statements. A statement
 * whose answer the batch does not wait for (its `begin`, the held rows' inserts) is deferred; the
 * next statement the batch does wait for (its reads in advance, its `commit`) goes with every statement deferred or
 * asked for before it in the same turn, as one text of several statements (the simple query protocol takes them in
 * one message, their values written in as literals): a batch of clicks costs one round trip, a batch of sales two,
 * instead of three and five (BENCHMARKS.md, "The hot path, sixth pass"). Each round trip costs about 1 ms under load
 * on shared cores, more than PostgreSQL's work for a batch of 25 clicks.
 *
 * The statements run in the order they were given, each seeing what those before it did, as one at a time would.
 * When one fails PostgreSQL skips the rest of the text, and every statement of it and after it fails with that
 * error (the transaction is aborted anyway). A statement that cannot share a text (a value that cannot be written as
 * a literal, or a write the lookup cache must hear of) runs alone, in its turn. With nothing deferred, statements run
 * at once, as without this class.
 */
export class RoundTrips {
  private pending: Entry[] = [];
  private flushing: Promise<void> | undefined;

  constructor(private readonly execute: Execute) {}

  defer(query: CompiledQuery): void {
    this.pending.push({ query, text: joinable(query) });
  }

  run(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.pending.length === 0 && !this.flushing) return this.execute(query);
    return new Promise((resolve, reject) => {
      // The first statement waited for since the last text was sent: the text goes at the end of this turn, with
      // whatever else this turn asks for (the batch's reads in advance run side by side).
      if (!this.pending.some((entry) => entry.settle)) queueMicrotask(() => this.send());
      this.pending.push({ query, text: joinable(query), settle: { resolve, reject } });
    });
  }

  private send(): void {
    const entries = this.pending;
    this.pending = [];
    const before = this.flushing ?? Promise.resolve();
    const flushing = before.then(() => this.write(entries));
    this.flushing = flushing;
    void flushing.then(() => {
      if (this.flushing === flushing) this.flushing = undefined;
    });
  }

  private async write(entries: Entry[]): Promise<void> {
    let failed: { error: unknown } | undefined;
    for (const part of parts(entries)) {
      if (failed) {
        for (const entry of part) entry.settle?.reject(failed.error);
        continue;
      }
      try {
        if (part.length === 1) {
          const result = await this.execute(part[0]!.query);
          part[0]!.settle?.resolve(result);
        } else {
          const result = await this.execute(CompiledQuery.raw(JOINED + part.map((entry) => entry.text).join('; ')));
          const answers = result.rows as JoinedAnswer[];
          part.forEach((entry, index) => entry.settle?.resolve(answerOf(answers[index])));
        }
      } catch (error) {
        failed = { error };
        for (const entry of part) entry.settle?.reject(error);
      }
    }
  }
}

/** The entries in texts: runs of statements that can share one, and each other statement alone. */
function parts(entries: Entry[]): Entry[][] {
  const result: Entry[][] = [];
  let run: Entry[] = [];
  for (const entry of entries) {
    if (entry.text !== undefined) {
      run.push(entry);
      continue;
    }
    if (run.length > 0) result.push(run);
    result.push([entry]);
    run = [];
  }
  if (run.length > 0) result.push(run);
  return result;
}

/** The statement's text for a joined text, or undefined when it must run alone (see `RoundTrips`). */
function joinable(query: CompiledQuery): string | undefined {
  if (isLiteralStatement(query)) return query.sql;
  // One statement per entry, so that the answers match them: a text with `;` anywhere is taken for several.
  if (query.sql.includes(';') || writesCachedTables(query.sql)) return undefined;
  return inlined(query);
}

/**
 * PostgreSQL refused a statement (severity ERROR): its transaction is aborted, its connection goes on. In a joined
 * text that failed this way nothing was committed: the statements after it, its `commit` included, were skipped (an
 * error of the `commit` itself rolls back too). Anything else (a FATAL error, the connection lost) leaves the
 * outcome unknown and the connection unusable (store/db.ts ends it).
 */
export function statementRefused(error: unknown): boolean {
  return isPgDatabaseError(error) && error.severity === 'ERROR';
}
