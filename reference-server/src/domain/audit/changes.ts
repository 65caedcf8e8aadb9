/** A field's old and new value, as an audit entry's details show it. */
export interface Change {
  from: unknown;
  to: unknown;
}

/**
 * The fields of `fields` whose value differs between `before` and `after`, each as `{ from, to }` (values compared
 * as JSON, so lists compare by content). Empty when nothing changed: the caller then records nothing.
 */
export function changedFields<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): Record<string, Change> {
  const out: Record<string, Change> = {};
  for (const field of fields) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[field] = { from, to };
  }
  return out;
}
