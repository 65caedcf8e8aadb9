import { CompiledQuery, type QueryResult } from 'kysely';
import { inlined, isLiteralStatement, literalStatement, literalTuples } from './literals';
import { writesCachedTables } from './lookup-cache';
import type { Statement } from './statement';

/** How a dialect writes the n-th parameter (1-based): SQLite `?`, PostgreSQL `$n`. */
export type Placeholders = 'question' | 'numbered';

/**
 * How many rows one statement takes. SQLite: `sqliteChunk`, so a batch writes each table and column set in one or two
 * statements (a text per row count, kept prepared by text: store/db.ts). Each statement more costs SQLite about
 * a third of a click's rows: it seeks each of the table's b-trees from the root again, reads and writes the
 * AUTOINCREMENT counter, opens a statement journal; in chunks of powers of two (16 + 8 + 4 + 2 + 1 for 31 rows) a click
 * took 20 % more of SQLite's work than in one statement of 32 (docs/performance-notes.md, "SQLite: one statement per
 * table").
 * PostgreSQL: every row of the group in one statement, one round trip, as far as `MAX_PARAMETERS` allows (the
 * protocol's limit is 65,535).
 */
const MAX_SQLITE_ROWS = 64;
const MAX_PARAMETERS = 30_000;

/**
 * SQLite: the rows of the next statement, out of `left`: a multiple of 8 up to `MAX_SQLITE_ROWS`, then the rest. A
 * prepared statement of many rows holds tens of kilobytes, so 15 texts a table (8, 16, … 64 and 1 to 7) rather than
 * 64 keep the server's memory in its budget (BENCHMARKS.md, peak RSS), for one statement more in most batches.
 */
function sqliteChunk(left: number): number {
  return left < 8 ? left : Math.min(MAX_SQLITE_ROWS, left - (left % 8));
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** Statement texts by dialect, table, columns and row count: a bounded set (see `sqliteChunk`), kept across batches. */
const texts = new Map<string, string>();

interface Group {
  table: string;
  columns: string[];
  rows: unknown[][];
  /** A held statement of another kind (`holdStatement`): writes its rows in one statement; else they are inserted. */
  statement?: (rows: unknown[][]) => CompiledQuery;
  /** A read (a check that fails the batch): a statement of its own, never a `WITH` query, which would not run. */
  alone?: boolean;
  /** SQLite: the statement must change one row per held row, else it fails the batch (a conditional update). */
  each?: boolean;
}

/**
 * The plain inserts (no `RETURNING`) of a combined group-commit batch (store/engine/group-commit.ts, "Combined batches"),
 * held back and written as multi-row inserts, per table and column set: on PostgreSQL a batch of clicks costs three
 * inserts (one round trip each) instead of three per click (BENCHMARKS.md, "Combined batches").
 *
 * Nothing reads around them: the batch writes every held row before any other statement that could see it
 * (`mustWriteBefore`, `Batch.execute` in store/engine/batch.ts), so a later statement of the batch, a read included,
 * sees the database exactly as if each row had been inserted where it was asked for. Rows of one table keep their
 * order (ids ascend as asked); tables are written in the order they were first asked for. A failed multi-row insert cannot say which request's row broke
 * it, so it fails the whole combined batch, which then runs again request by request.
 */
export class DeferredInserts {
  private readonly groups = new Map<string, Group>();
  /** The insert groups of `groups` by table (`add`). */
  private readonly inserts = new Map<string, Group[]>();
  /**
   * A write of held rows failed. The error reached whichever statement set the write off, in whichever request:
   * it belongs to none of them (store/engine/group-commit.ts runs the batch again, request by request).
   */
  failed = false;
  /** Rows ever held: a request that holds rows and then throws may owe its error to one of them (`runCombined`). */
  added = 0;
  /**
   * Statements other than reads that went to the database while rows were held: with `added`, whether a part of a
   * request wrote anything (`behindSavepoint` in store/engine/group-commit.ts).
   */
  direct = 0;

  /**
   * Hold every plain write, not only inserts (`holdQuery`): set once a batch's requests have run
   * (store/engine/group-commit.ts), when nothing reads a write's result any more, so that on PostgreSQL the batch's
   * metric upserts go in the text of its `commit` with its held rows.
   */
  holdAll = false;

  constructor(readonly placeholders: Placeholders) {}

  add(table: string, row: Record<string, unknown>): void {
    // Found by table, then by comparing the row's columns: no key string built and hashed per row, for every held
    // row of every request (BENCHMARKS.md, "The hot path, fifth pass").
    const groups = this.inserts.get(table);
    if (groups) {
      for (const group of groups) {
        const values = valuesIn(row, group.columns);
        if (values) {
          group.rows.push(values);
          this.added++;
          return;
        }
      }
    }
    const columns = Object.keys(row).filter((column) => row[column] !== undefined);
    for (const name of [table, ...columns]) if (!IDENTIFIER.test(name)) throw new Error(`not a plain identifier: ${name}`);
    const group: Group = { table, columns, rows: [columns.map((column) => row[column])] };
    this.groups.set(`${table}:${columns.join(',')}`, group);
    if (groups) groups.push(group);
    else this.inserts.set(table, [group]);
    this.added++;
  }

  /**
   * Holds one row of a statement that writes many rows at once (a batch's customer conversions, store/customers.ts):
   * written with the held inserts, in one `statement(rows)` per `kind`, under the same rule (`mustWriteBefore`).
   */
  holdStatement(
    table: string,
    kind: string,
    row: unknown[],
    statement: (rows: unknown[][]) => CompiledQuery,
    options: { alone?: boolean; each?: boolean } = {},
  ): void {
    const key = `${table}|${kind}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { table, columns: [], rows: [], statement, alone: options.alone, each: options.each };
      this.groups.set(key, group);
    }
    group.rows.push(row);
    this.added++;
  }

  /** Holds `query`, a plain write of `table` (`holdAll`), to run as it is with the held rows. */
  holdQuery(table: string, query: CompiledQuery): void {
    // A statement of its own, in the order held: the metric upserts, sorted (store/engine/metrics.ts), then lock
    // their rows in one order in every batch of every server, never in the order a packed `WITH` runs them.
    this.groups.set(`${table}|query|${this.added}`, { table, columns: [], rows: [[]], statement: () => query, alone: true });
    this.added++;
  }

  /**
   * Writes every held row through `run` (the connection's own, unintercepted) and forgets them. `literals`
   * (PostgreSQL, the rows going in the text of the batch's `commit`): inserts with their values written in.
   */
  async write(run: (query: CompiledQuery) => Promise<QueryResult<unknown>>, literals = false): Promise<void> {
    const groups = [...this.groups.values()];
    this.groups.clear();
    this.inserts.clear();
    try {
      await this.writeGroups(groups, run, literals);
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }

  private async writeGroups(
    groups: Group[],
    run: (query: CompiledQuery) => Promise<QueryResult<unknown>>,
    literals: boolean,
  ): Promise<void> {
    const statements: { table: string; query: CompiledQuery; alone?: boolean; each?: number }[] = [];
    for (const group of groups) {
      if (group.statement) {
        // SQLite: in the inserts' chunks, so that its texts by row count stay few (`rowValues`).
        for (let at = 0; at < group.rows.length;) {
          const size = this.placeholders === 'numbered' ? group.rows.length : sqliteChunk(group.rows.length - at);
          const rows = group.rows.slice(at, at + size);
          const each = group.each ? rows.length : undefined;
          statements.push({ table: group.table, query: group.statement(rows), alone: group.alone, each });
          at += size;
        }
        continue;
      }
      let at = 0;
      while (at < group.rows.length) {
        const left = group.rows.length - at;
        const size =
          this.placeholders === 'numbered' ? Math.min(left, Math.floor(MAX_PARAMETERS / group.columns.length)) : sqliteChunk(left);
        statements.push({ table: group.table, query: this.insert(group, group.rows.slice(at, at + size), literals) });
        at += size;
      }
    }
    if (this.placeholders === 'numbered') for (const pack of packs(statements)) await run(combined(pack));
    else
      for (const { query, each } of statements) {
        const result = await run(query);
        if (each !== undefined && Number(result.numAffectedRows ?? 0) !== each) {
          throw new Error(`a held conditional update changed ${String(result.numAffectedRows)} of ${each} rows`);
        }
      }
  }

  get empty(): boolean {
    return this.groups.size === 0;
  }

  /**
   * Whether the held rows must be written before `statement` runs. Not before a plain write of another table
   * (store/engine/statement.ts): it cannot see them, as the schema has no triggers and no foreign keys
   * (ARCHITECTURE.md, invariants). Everything else waits for them: reads, deletes, savepoints, `commit`.
   */
  mustWriteBefore(statement: Statement): boolean {
    if (statement.kind !== 'write') return true;
    for (const group of this.groups.values()) if (group.table === statement.table) return true;
    return false;
  }

  discard(): void {
    this.groups.clear();
    this.inserts.clear();
  }

  private insert(group: Group, rows: unknown[][], literals: boolean): CompiledQuery {
    if (literals) {
      // Written in at once, the text the joined `commit` needs: numbering parameters, moving them past the
      // others' and writing them in again after was 2 % of a PostgreSQL click's CPU (docs/performance-notes.md).
      const head = this.head(group);
      const tuples = writesCachedTables(head) ? undefined : literalTuples(rows);
      if (tuples !== undefined) return literalStatement(`${head} values ${tuples}`);
    }
    const key = `${this.placeholders}|${group.table}|${group.columns.join(',')}|${rows.length}`;
    let text = texts.get(key);
    if (!text) {
      if (texts.size >= 2000) texts.clear();
      text = this.text(group, rows.length);
      texts.set(key, text);
    }
    return CompiledQuery.raw(text, flat(rows, group.columns.length));
  }

  private text(group: Group, count: number): string {
    const width = group.columns.length;
    const tuple = (index: number) =>
      `(${group.columns.map((_, column) => (this.placeholders === 'numbered' ? `$${index * width + column + 1}` : '?')).join(', ')})`;
    const tuples = Array.from({ length: count }, (_, index) => tuple(index));
    return `${this.head(group)} values ${tuples.join(', ')}`;
  }

  private head(group: Group): string {
    return `insert into "${group.table}" (${group.columns.map((column) => `"${column}"`).join(', ')})`;
  }
}

/**
 * SQLite: held rows as a named table for a statement that writes many rows at once (a batch's lead changes and
 * conversions, store/customers.ts), `with v(names) as (values (?, …), …) <statement from v>`: the values bound as
 * parameters, one text per row count (`sqliteChunk`'s, kept prepared: store/db.ts). Read from one JSON
 * text with `json_each`, SQLite parsed each row's JSON again for every column it read: 2 to 3 µs more per lead.
 */
export function rowValues(names: readonly string[], statement: string): (rows: unknown[][]) => CompiledQuery {
  const byCount = new Map<number, string>();
  const tuple = `(${names.map(() => '?').join(', ')})`;
  return (rows) => {
    let text = byCount.get(rows.length);
    if (text === undefined) {
      text = `with v(${names.join(', ')}) as (values ${Array.from({ length: rows.length }, () => tuple).join(', ')}) ${statement}`;
      byCount.set(rows.length, text);
    }
    // As JSON gave them: a boolean as 1 or 0, a value left undefined as null.
    return CompiledQuery.raw(
      text,
      flat(rows, names.length).map((value) => (typeof value === 'boolean' ? Number(value) : (value ?? null))),
    );
  };
}

/** `row`'s values in the order of `columns` when its defined columns are exactly those, in that order; else undefined. */
function valuesIn(row: Record<string, unknown>, columns: string[]): unknown[] | undefined {
  const values = new Array<unknown>(columns.length);
  let at = 0;
  for (const column in row) {
    const value = row[column];
    if (value === undefined) continue;
    if (columns[at] !== column) return undefined;
    values[at++] = value;
  }
  return at === columns.length ? values : undefined;
}

/** `rows.flat()` for rows of one width, by index: `flat` was the largest self time of a SQLite sale (BENCHMARKS.md, "The hot path, fifth pass"). */
function flat(rows: unknown[][], width: number): unknown[] {
  const values = new Array<unknown>(rows.length * width);
  let at = 0;
  for (const row of rows) for (let column = 0; column < width; column++) values[at++] = row[column];
  return values;
}

/**
 * PostgreSQL: the held statements in as few round trips as the rules allow. A pack never holds two statements of
 * one table (a statement cannot see what another of the same text did, and two changing one row would keep only
 * one change), nor more than `MAX_PARAMETERS` parameters; statements of one table stay in their order. A statement
 * held `alone` (a check that reads) is a pack of its own.
 */
function packs(statements: { table: string; query: CompiledQuery; alone?: boolean }[]): CompiledQuery[][] {
  const result: CompiledQuery[][] = [];
  let pack: CompiledQuery[] = [];
  let tables = new Set<string>();
  let parameters = 0;
  const close = () => {
    result.push(pack);
    pack = [];
    tables = new Set();
    parameters = 0;
  };
  for (const { table, query, alone } of statements) {
    if (pack.length > 0 && (alone || tables.has(table) || parameters + query.parameters.length > MAX_PARAMETERS)) close();
    pack.push(query);
    tables.add(table);
    parameters += query.parameters.length;
    if (alone) close();
  }
  if (pack.length > 0) result.push(pack);
  return result;
}

/** Texts with their `$n` moved on by a count, by text, then count: renumbering was 2 % of a PostgreSQL sale's CPU. */
const shifts = new Map<string, Map<number, string>>();

function shifted(text: string, shift: number): string {
  // The texts are the store's own, the same string each time (`texts`, the compiled upserts), whose hash V8 keeps.
  let byShift = shifts.get(text);
  if (!byShift) {
    if (shifts.size >= 2000) shifts.clear();
    shifts.set(text, (byShift = new Map<number, string>()));
  }
  let moved = byShift.get(shift);
  if (moved === undefined) {
    if (byShift.size >= 200) byShift.clear();
    moved = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
    byShift.set(shift, moved);
  }
  return moved;
}

/**
 * One statement of several: all but the last as data-modifying `WITH` queries, which PostgreSQL runs to the end
 * whether or not the main statement reads them, on one snapshot (BENCHMARKS.md, "The hot path, fourth pass", item 6). Safe
 * for statements of different tables only: with no triggers and no foreign keys none can see another's rows
 * (ARCHITECTURE.md, invariants). Each statement's `$n` is moved past the parameters of those before it; the texts
 * with parameters are the store's own inserts and upserts, with no `$` but parameters. With a statement whose values
 * are written in (`literalStatement`), the others' are written in too when they can be: the whole is then one.
 */
function combined(pack: CompiledQuery[]): CompiledQuery {
  if (pack.length === 1) return pack[0]!;
  if (pack.some(isLiteralStatement)) {
    const texts = pack.map((query) => (isLiteralStatement(query) ? query.sql : inlined(query)));
    if (texts.every((text) => text !== undefined)) {
      const last = texts.pop()!;
      return literalStatement(`with ${texts.map((text, index) => `w${index} as (${text})`).join(', ')} ${last}`);
    }
  }
  let offset = 0;
  const texts = pack.map((query) => {
    const shift = offset;
    offset += query.parameters.length;
    // A text without parameters (`literalStatement`) holds values, where a `$n` is data: never moved.
    return shift === 0 || query.parameters.length === 0 ? query.sql : shifted(query.sql, shift);
  });
  const last = texts.pop()!;
  const ctes = texts.map((text, index) => `w${index} as (${text})`).join(', ');
  return CompiledQuery.raw(
    `with ${ctes} ${last}`,
    pack.flatMap((query) => query.parameters),
  );
}
