import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The contract in the repository (spec/openapi.yaml). */
export const specPath = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
/** Where the check writes what it generates (gitignored; see .gitignore). */
export const generatedDir = fileURLToPath(new URL('../generated/', import.meta.url));

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type PathItem = Record<string, unknown>;
interface Document {
  paths: Record<string, PathItem>;
  [key: string]: unknown;
}

/**
 * The contract a team outside this repository is given: spec/openapi.yaml without the operations marked
 * `x-internal: true` (test control, the pages and the static files), as Redocly's `remove-x-internal` decorator and
 * doc tools drop them. Written as JSON, so a generator needs no YAML anchors.
 */
export function publicContract(spec: Document): Document {
  const paths: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    const kept = Object.entries(item).filter(([key, operation]) => !(methods.includes(key) && isInternal(operation)));
    if (kept.some(([key]) => methods.includes(key))) paths[path] = Object.fromEntries(kept);
  }
  return withoutUnreferenced({ ...spec, paths });
}

/** Drops the components only internal operations used, so a linter or generator sees what a consumer meets. */
function withoutUnreferenced(spec: Document): Document {
  const components = (spec.components ?? {}) as Record<string, Record<string, unknown>>;
  const reached = new Set<string>();
  const pending: unknown[] = [spec.paths, spec.webhooks, spec.security];
  // Every security scheme stays: an operation names one by key, not by `$ref`.
  for (const name of Object.keys(components.securitySchemes ?? {})) reached.add(`#/components/securitySchemes/${name}`);
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...(value as unknown[]));
    else if (typeof value === 'object' && value !== null) {
      const ref = (value as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && !reached.has(ref)) {
        reached.add(ref);
        const [, , section, name] = ref.split('/');
        if (section !== undefined && name !== undefined) pending.push(components[section]?.[name]);
      }
      pending.push(...Object.values(value as Record<string, unknown>));
    }
  }
  const kept = Object.fromEntries(
    Object.entries(components).map(([section, entries]) => [
      section,
      Object.fromEntries(Object.entries(entries).filter(([name]) => reached.has(`#/components/${section}/${name}`))),
    ]),
  );
  return { ...spec, components: kept };
}

function isInternal(operation: unknown): boolean {
  return typeof operation === 'object' && operation !== null && (operation as { 'x-internal'?: unknown })['x-internal'] === true;
}

/** Reads spec/openapi.yaml and writes its public contract under generated/ (a file per test file); returns its path. */
export async function writePublicContract(fileName: string): Promise<string> {
  const spec = parse(await readFile(specPath, 'utf8'), { maxAliasCount: -1 }) as Document;
  const path = `${generatedDir}${fileName}`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(publicContract(spec), null, 2)}\n`);
  return path;
}
