export type BearerHeader = { kind: 'none' } | { kind: 'malformed' } | { kind: 'empty' } | { kind: 'token'; token: string };

/** spec/rules.md "Authentication" rule 2: missing, not starting with `Bearer `, empty token, or a token. */
export function parseBearer(header: string | undefined): BearerHeader {
  if (header === undefined) return { kind: 'none' };
  // HTTP drops trailing whitespace from header values, so `Bearer ` with an empty token arrives as `Bearer`.
  if (header.trimEnd() === 'Bearer') return { kind: 'empty' };
  if (!header.startsWith('Bearer ')) return { kind: 'malformed' };
  const token = header.slice('Bearer '.length).trim();
  return token === '' ? { kind: 'empty' } : { kind: 'token', token };
}
