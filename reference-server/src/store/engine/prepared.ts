/**
 * The statement texts worth preparing once per PostgreSQL connection: the hot path's compiled queries
 * (store/engine/compiled.ts), a small fixed set. A prepared statement skips PostgreSQL's parse and plan on every run, which
 * on shared cores is CPU taken from the server itself (BENCHMARKS.md, "Prepared statements"). Other statements
 * (the dashboard's, built per request) stay unnamed, so no connection collects an unbounded set.
 */
const names = new Map<string, string>();

/** Marks a compiled text for preparing; the same text always gets the same name. */
export function prepareText(text: string): void {
  if (!names.has(text)) names.set(text, `svc_${names.size + 1}`);
}

/** The prepared statement name of `text`, or undefined when it runs unnamed. */
export function preparedName(text: string): string | undefined {
  return names.get(text);
}
