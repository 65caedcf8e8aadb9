import {
  PostgresAdapter,
  sql,
  type AliasedExpression,
  type Compilable,
  type CompiledQuery,
  type Expression,
  type Insertable,
  type QueryResult,
  type SqlBool,
} from 'kysely';
import type { Database } from '../schema';
import type { Db } from './batch';
import { prepareText } from './prepared';
import { statementOf, type Statement } from './statement';

const SLOT = Symbol('svc.slot');
interface Slot {
  readonly [SLOT]: string;
}

/** Names a value of the arguments; typed as that value so that the builder still checks it against its column. */
export type Slots<A> = <K extends keyof A & string>(name: K) => A[K];

const slots = <A>(): Slots<A> => ((name: string) => ({ [SLOT]: name }) satisfies Slot) as unknown as Slots<A>;

const isSlot = (value: unknown): value is Slot => typeof value === 'object' && value !== null && SLOT in value;

/** One store's compiled text per dialect: the SQL differs between SQLite and PostgreSQL, never between stores of one. */
const dialectOf = (db: Db): unknown => db.getExecutor().adapter.constructor;

/**
 * A query of the hot path built and compiled once per dialect, then run with fresh values (BENCHMARKS.md, "Where a
 * tracking request's time goes": Kysely's immutable builders and its compiler were 13–23 % of a tracking request's
 * CPU, for the same few statements each time). `build` names each value with `$('name')`; the compiled query keeps
 * those names in its parameter list, and each run swaps them for `args`. The query is still written with Kysely's
 * typed builder, for both stores, and runs through the same driver (a transaction's `trx` included).
 */
export function compiled<A extends object, R>(build: (db: Db, $: Slots<A>) => Compilable<R>): (db: Db, args: A) => Promise<QueryResult<R>> {
  const byDialect = new Map<unknown, { query: CompiledQuery<R>; statement: Statement }>();
  return async (db, args) => {
    const dialect = dialectOf(db);
    let built = byDialect.get(dialect);
    if (!built) {
      const query = build(db, slots<A>()).compile();
      prepareText(query.sql);
      // What it is (a read, a plain write of one table), declared once by the tree it was built from.
      built = { query, statement: statementOf(query) };
      byDialect.set(dialect, built);
    }
    const bound = bind(built.query, args);
    // In a group-commit batch, straight to the batch (store/engine/batch.ts), without Kysely's executor around it.
    const batch = db.batch;
    return batch ? (batch.execute(bound, built.statement) as Promise<QueryResult<R>>) : db.executeQuery(bound);
  };
}

/**
 * `compiled` for a family of queries that differ by shape (which columns an insert names, which counters an
 * upsert bumps): one compiled query per `shape` key, built by `build` the first time that key is seen. The shapes
 * are a small fixed set in the code, so the family stays small.
 */
export function compiledFamily<A extends object, R, S>(
  build: (db: Db, $: Slots<A>, shape: S) => Compilable<R>,
): (db: Db, shapeKey: string, shape: S, args: A) => Promise<QueryResult<R>> {
  const members = new Map<string, (db: Db, args: A) => Promise<QueryResult<R>>>();
  return (db, shapeKey, shape, args) => {
    let member = members.get(shapeKey);
    if (!member) {
      member = compiled<A, R>((db, $) => build(db, $, shape));
      members.set(shapeKey, member);
    }
    return member(db, args);
  };
}

function bind<R>(query: CompiledQuery<R>, args: object): CompiledQuery<R> {
  const values = args as Record<string, unknown>;
  return {
    ...query,
    parameters: query.parameters.map((parameter) => {
      if (!isSlot(parameter)) return parameter;
      const value = values[parameter[SLOT]];
      if (value === undefined) throw new Error(`no value for ${parameter[SLOT]} in a compiled query`);
      return value;
    }),
  };
}

/** `insert into <table> (<row's columns>) values (…)`, compiled once per table and column set. */
const insertFamily = compiledFamily<Record<string, unknown>, unknown, { table: keyof Database; columns: string[]; returningId: boolean }>(
  (db, $, { table, columns, returningId }) => {
    const values = Object.fromEntries(columns.map((column) => [column, $(column)]));
    const insert = db.insertInto(table).values(values);
    return returningId ? insert.returning('id' as never) : insert;
  },
);

/**
 * Inserts `row` into `table` through a query compiled once per column set; `returningId`: resolves to the new id.
 * In a combined group-commit batch a plain insert is held back and written with the batch's other rows of that
 * table in one multi-row insert (store/engine/deferred-inserts.ts).
 */
export async function insertRow<T extends keyof Database>(
  db: Db,
  table: T,
  row: Insertable<Database[T]>,
  returningId: true,
): Promise<number>;
export async function insertRow<T extends keyof Database>(
  db: Db,
  table: T,
  row: Insertable<Database[T]>,
  returningId?: false,
): Promise<void>;
export async function insertRow<T extends keyof Database>(
  db: Db,
  table: T,
  row: Insertable<Database[T]>,
  returningId = false,
): Promise<number | void> {
  const held = returningId ? undefined : db.batch?.held;
  if (held) return held.add(table, row);
  const columns = Object.keys(row).filter((column) => (row as Record<string, unknown>)[column] !== undefined);
  const result = await insertFamily(db, `${table}|${columns.join(',')}|${returningId}`, { table, columns, returningId }, row);
  if (returningId) return (result.rows[0] as { id: number }).id;
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A lookup by one key: its condition on the key's column stated with `matches`, at most one row found. */
type KeyLookup<O> = (matches: (column: string) => Expression<SqlBool>) => {
  limit(count: number): { as(alias: 'found'): AliasedExpression<O, 'found'> };
} & Compilable<O>;

/**
 * The rows `lookup` finds for each key of a list, in one statement text whatever the list's length, so that it is
 * compiled and prepared once (above); `list` is the compiled query's slot for `listParameter`'s value.
 * Each lookup is by a unique key.
 *
 * PostgreSQL: one index lookup per key, a lateral join over `unnest($1::text[])` whose `limit 1` keeps the planner
 * from flattening it. `column = any($1)` was planned from the table's statistics, and on a table that had just grown
 * (a new deployment's first minutes, every bench run) a customer lookup by key became a scan of all the program's
 * customers: 15 ms for 25 keys at 60,000 customers, 0.2 ms this way (BENCHMARKS.md, "The hot path, fifth pass",
 * item 5). SQLite: `column in (select value from json_each(?))`, planned as one lookup per key.
 */
export function eachKey<O>(db: Db, list: unknown, lookup: KeyLookup<O>): Compilable<O> {
  if (!isPostgres(db)) return lookup((column) => sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${list}))`);
  const found = lookup((column) => sql<SqlBool>`${sql.ref(column)} = ${sql.ref('key.key')}`)
    .limit(1)
    .as('found');
  return db
    .selectFrom(sql<{ key: string }>`unnest(${list}::text[])`.as('key'))
    .innerJoinLateral(found, (join) => join.onTrue())
    .selectAll('found');
}

/** The parameter `eachKey` takes for `values`: the array itself (PostgreSQL), or its JSON text (SQLite). */
export function listParameter(db: Db, values: readonly (string | number)[]): unknown {
  return isPostgres(db) ? values : JSON.stringify(values);
}
