import { createRequire } from 'node:module';

/**
 * The operations the fuzzer drives, read from the spec itself (`@svc/types/openapi.json`, built from
 * spec/openapi.yaml) so a route added to the spec is fuzzed without touching this folder. The `/_test/*`
 * control API is left out: it is how the fuzzer sets up and observes state, not product surface.
 */

export type Json = Record<string, unknown>;
export const spec = createRequire(import.meta.url)('@svc/types/openapi.json') as Json & { components: Json; paths: Record<string, Json> };

export type Credential = 'programKey' | 'loginToken' | 'dashboardSession' | 'none';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
}

export interface FuzzOperation {
  method: string;
  template: string;
  /** The request body schema (components refs left in place; the generator resolves them). */
  bodySchema: Json | undefined;
  /** Media types the spec accepts for the body. */
  contentTypes: string[];
  parameters: Parameter[];
  credential: Credential;
  /** The spec also lists no credential (`{}`) among the operation's security requirements (sign-out). */
  credentialOptional: boolean;
}

function deref(node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  return deref(
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((n, key) => (n as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec) as Json,
  );
}

function credentialOf(op: Json): Credential {
  const schemes = ((op.security as Json[] | undefined) ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('programKey')) return 'programKey';
  if (schemes.includes('loginToken')) return 'loginToken';
  if (schemes.includes('dashboardSession')) return 'dashboardSession';
  return 'none';
}

export function listOperations(): FuzzOperation[] {
  const result: FuzzOperation[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    if (template.startsWith('/_test/')) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
      const [firstMedia] = Object.values(content);
      const parameters = [...((item.parameters as Json[] | undefined) ?? []), ...((op.parameters as Json[] | undefined) ?? [])]
        .map(deref)
        .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
        .map((p) => ({
          name: String(p.name),
          in: p.in as Parameter['in'],
          required: p.required === true,
          schema: (p.schema ?? {}) as Json,
        }));
      result.push({
        method: method.toUpperCase(),
        template,
        bodySchema: firstMedia?.schema as Json | undefined,
        contentTypes: Object.keys(content),
        parameters,
        credential: credentialOf(op),
        credentialOptional: ((op.security as Json[] | undefined) ?? []).some((requirement) => Object.keys(requirement).length === 0),
      });
    }
  }
  return result;
}
