import { InsertQueryNode, TableNode, UpdateQueryNode, type CompiledQuery, type OperationNode } from 'kysely';

/**
 * What a statement of a group-commit batch is, as far as held rows care (store/engine/deferred-inserts.ts):
 * - `read`: reads only;
 * - `write`: inserts into or updates one table and reads no other (no subquery, no `from`, no `with`), so it cannot
 *   see rows held for another table (the schema has no triggers and no foreign keys: ARCHITECTURE.md, invariants);
 * - `other`: anything else (a delete, a savepoint, `commit`, a raw text): every held row is written before it.
 *
 * Declared where a statement is built: the engine's own (`compiled`, `insertRow`, the id blocks) state it, and a
 * statement built with Kysely's builder says it in its operation tree, which `statementOf` reads. A raw text says
 * nothing and is `other`.
 */
export type Statement = { readonly kind: 'read' } | { readonly kind: 'write'; readonly table: string } | { readonly kind: 'other' };

export const READ: Statement = { kind: 'read' };
export const OTHER: Statement = { kind: 'other' };

/** Builder-made statements by text: the store runs a small fixed set, and each tree is walked once. */
const known = new Map<string, Statement>();

/** What `query` is, from the operation tree Kysely built it from (`Statement`). */
export function statementOf(query: CompiledQuery): Statement {
  let statement = known.get(query.sql);
  if (statement === undefined) {
    statement = classify(query.query);
    if (known.size < 2000) known.set(query.sql, statement);
  }
  return statement;
}

function classify(node: OperationNode): Statement {
  if (node.kind === 'SelectQueryNode') return READ;
  if (InsertQueryNode.is(node)) return node.with ? OTHER : plainWrite(node.into, node);
  if (UpdateQueryNode.is(node)) return node.from || node.joins || node.with ? OTHER : plainWrite(node.table, node);
  return OTHER;
}

/** A write of `table` when nothing in `node` reads (no select anywhere in its tree). */
function plainWrite(table: OperationNode | undefined, node: OperationNode): Statement {
  if (!table || !TableNode.is(table) || table.table.schema || containsSelect(node, true)) return OTHER;
  return { kind: 'write', table: table.table.identifier.name };
}

function containsSelect(value: unknown, root = false): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (!root && (value as { kind?: unknown }).kind === 'SelectQueryNode') return true;
  if (Array.isArray(value)) return value.some((item) => containsSelect(item));
  return Object.values(value).some((item) => containsSelect(item));
}
