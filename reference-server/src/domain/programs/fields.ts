import { fail } from '../../errors/service-error';

/**
 * The program fields a merchant sends: `name` and `domain` when creating a program (`POST /api/v1/cli/init` and
 * `POST /api/dashboard/programs`, spec/rules.md "CLI routes") and `allowed_origins` in its settings (spec/rules.md "Authentication" rule 6). The
 * bounds are Decisions on `CliInitRequest` and `PATCH /api/dashboard/programs/{programId}` in spec/openapi.yaml.
 */

export const programNameMaxCharacters = 200;
export const domainMaxCharacters = 253;
export const allowedOriginsMaxCount = 100;
/** `https://` followed by the longest `domain` (host and port included). */
export const originMaxCharacters = 'https://'.length + domainMaxCharacters;

/** Characters as JSON Schema's `maxLength` counts them: code points, so an emoji is one, as in the spec. */
export const characterCount = (text: string): number => [...text].length;

/**
 * A trimmed, non-empty name of at most 200 characters. A missing or blank name is the caller's "missing field"
 * (`initMissingFields`): this only bounds a name that is there.
 */
export function programName(value: string): string {
  const name = value.trim();
  if (characterCount(name) > programNameMaxCharacters) throw fail('programNameInvalid');
  return name;
}

const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A host name (RFC 1123 labels: letters, digits, inner hyphens, 1 to 63 each), then an optional `:port`. */
const domainPattern = new RegExp(`^${label}(?:\\.${label})*(?::(\\d{1,5}))?$`);

/**
 * The site's host name, as `svc init --domain acme.com` takes it: no scheme, path, query, user or spaces; an
 * optional port of 1 to 65535 (a development site on `localhost:3000`); at most 253 characters in all. The partner's
 * shareable URL is `https://<domain>/?aff=…`, so anything else would make a broken, or someone else's, link.
 */
export function programDomain(value: string): string {
  const domain = value.trim();
  const match = domain.length <= domainMaxCharacters ? domainPattern.exec(domain) : null;
  const port = match?.[1] === undefined ? undefined : Number(match[1]);
  if (!match || (port !== undefined && (port < 1 || port > 65_535))) throw fail('programDomainInvalid');
  return domain;
}

function origin(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > originMaxCharacters) return undefined;
  try {
    const url = new URL(value);
    // An origin is scheme + host (+ port): nothing after it.
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value.replace(/\/$/, '') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * spec/rules.md "Authentication" rule 6: null (any origin) or a list of at most 100 origins (`scheme://host[:port]`, at most 261
 * characters each), stored without duplicates. Anything else is refused whole.
 */
export function allowedOrigins(list: unknown): string[] | null {
  if (list === null) return null;
  if (!Array.isArray(list) || list.length > allowedOriginsMaxCount) throw fail('dashboardOriginsInvalid');
  const origins = list.map(origin);
  if (origins.some((o) => o === undefined)) throw fail('dashboardOriginsInvalid');
  return [...new Set(origins as string[])];
}
