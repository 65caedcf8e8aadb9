import { CompiledQuery } from 'kysely';
import { pgDriver } from '../pg-driver';

/**
 * PostgreSQL: `query`'s text with each `$n` replaced by its value written as a literal, for a text of several
 * statements (store/engine/round-trips.ts), which the simple query protocol takes only without parameters; undefined when
 * that cannot be done safely, and the query then runs as it is.
 *
 * A literal means what the parameter meant: pg sends every parameter as text of no declared type, and a quoted
 * literal is text of no declared type too, typed by its context alike (PostgreSQL's documentation, "Constants of
 * Other Types" and `PREPARE`). Strings are quoted by pg's own `escapeLiteral` (quotes and backslashes doubled, `E''`
 * when there is a backslash), so no value can end its literal. Refused: a text that holds anything a `$` could
 * hide in other than plain string constants (a comment, a dollar quote: the store's texts hold none), a string with a NUL
 * (which would cut the text short; as a parameter PostgreSQL refuses it), and any value pg would not send as plain
 * text (a Buffer, a Date, an object).
 */
export function inlined(query: CompiledQuery): string | undefined {
  const { sql, parameters } = query;
  if (parameters.length === 0) return sql;
  const literals: string[] = [];
  for (const value of parameters) {
    const text = literal(value);
    if (text === undefined) return undefined;
    literals.push(text);
  }
  let out = '';
  let from = 0;
  let quoted = false;
  for (let at = 0; at < sql.length; at++) {
    const char = sql[at];
    if (char === '"') quoted = !quoted;
    if (quoted) continue;
    if (char === "'") {
      // A plain string constant of the text itself ('converted'): passed over. One with a backslash, or after an
      // `E`, means different things by the server's settings: refused.
      const end = sql.indexOf("'", at + 1);
      if (end < 0 || /[eE]/.test(sql[at - 1] ?? '') || sql.slice(at, end).includes('\\')) return undefined;
      at = end;
      continue;
    }
    if ((char === '-' && sql[at + 1] === '-') || (char === '/' && sql[at + 1] === '*')) return undefined;
    if (char !== '$') continue;
    let end = at + 1;
    while (end < sql.length && sql.charCodeAt(end) >= 48 && sql.charCodeAt(end) <= 57) end++;
    const value = end > at + 1 ? literals[Number(sql.slice(at + 1, end)) - 1] : undefined;
    if (value === undefined) return undefined;
    out += sql.slice(from, at) + value;
    from = end;
    at = end - 1;
  }
  return quoted ? undefined : out + sql.slice(from);
}

/** The statements `literalStatement` made: their text is final. */
const written = new WeakSet<CompiledQuery>();

/**
 * A statement the engine wrote with its values already in as literals (`literalTuples`, `inlined`): one statement
 * that writes no cached table, whose text a joined text takes as it is (store/engine/round-trips.ts). Its values'
 * text is data: nothing looks for `;`, `$n` or table names in it.
 */
export function literalStatement(sql: string): CompiledQuery {
  const query = CompiledQuery.raw(sql);
  written.add(query);
  return query;
}

export function isLiteralStatement(query: CompiledQuery): boolean {
  return written.has(query);
}

/**
 * `rows` as the tuples of a `values` list, each value written as a literal as `inlined` writes it (a held insert's
 * rows, store/engine/deferred-inserts.ts); undefined when one of them cannot be (the insert then takes parameters).
 */
export function literalTuples(rows: unknown[][]): string | undefined {
  let out = '';
  for (const row of rows) {
    let tuple = '';
    for (const value of row) {
      const text = literal(value);
      if (text === undefined) return undefined;
      tuple = tuple === '' ? text : `${tuple}, ${text}`;
    }
    out = out === '' ? `(${tuple})` : `${out}, (${tuple})`;
  }
  return out;
}

function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) {
    const elements: string[] = [];
    for (const element of value) {
      if (element === null || element === undefined) elements.push('NULL');
      else if (isScalar(element) && !String(element).includes('\0')) elements.push(arrayElement(String(element)));
      else return undefined;
    }
    return pgDriver().escapeLiteral(`{${elements.join(',')}}`);
  }
  if (!isScalar(value)) return undefined;
  const text = String(value);
  return text.includes('\0') ? undefined : pgDriver().escapeLiteral(text);
}

const isScalar = (value: unknown): value is string | number | bigint | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean';

/** An element of an array literal, quoted as pg quotes it (`arrayString` in pg/lib/utils.js). */
const arrayElement = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
