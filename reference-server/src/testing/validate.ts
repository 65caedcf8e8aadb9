import { createRequire } from 'node:module';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Validates real responses against spec/openapi.yaml (shipped as `@svc/types/openapi.json`), with Ajv's
 * JSON Schema 2020-12 — the contract check every test runs on every response it sees. Fastify's own
 * response schemas only serialize, so they would hide a contract bug; this does not.
 */

type Json = Record<string, unknown>;
const spec = createRequire(import.meta.url)('@svc/types/openapi.json') as Json;
const specId = 'openapi.json';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(spec, specId);

interface Operation {
  template: string;
  method: string;
  pattern: RegExp;
  pointer: string;
  responses: Json;
}

const operations: Operation[] = [];
for (const [template, item] of Object.entries(spec.paths as Record<string, Json>)) {
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  for (const method of ['get', 'post', 'put', 'patch', 'delete', 'options']) {
    const op = item[method] as Json | undefined;
    if (!op) continue;
    operations.push({
      template,
      method: method.toUpperCase(),
      pattern,
      pointer: `/paths/${escape(template)}/${method}`,
      responses: op.responses as Json,
    });
  }
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Follows a local `$ref` (responses are referenced from components) and returns the target and its pointer. */
function deref(value: Json, pointer: string): { value: Json; pointer: string } {
  const ref = value.$ref;
  if (typeof ref !== 'string') return { value, pointer };
  const target = ref.slice(1);
  const resolved = target
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec) as Json;
  return deref(resolved, target);
}

const compiled = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${specId}#${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

export interface ObservedResponse {
  method: string;
  /** The request URL or path (query strings are ignored). */
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The raw body text. */
  body: string;
}

export interface ValidationResult {
  valid: boolean;
  operation?: string;
  errors: string[];
}

/** Checks one response against the operation the spec describes for its method and path. */
export function validateResponse(response: ObservedResponse): ValidationResult {
  const path = new URL(response.url, 'http://placeholder').pathname;
  const method = response.method.toUpperCase();
  const operation = operations.find((op) => op.method === method && op.pattern.test(path));
  if (!operation) return { valid: false, errors: [`${method} ${path} is not described in spec/openapi.yaml`] };
  const name = `${method} ${operation.template}`;
  const declared = operation.responses[String(response.status)] ?? operation.responses.default;
  if (!declared) return { valid: false, operation: name, errors: [`${name} does not document status ${response.status}`] };

  const { value: responseObject, pointer } = deref(declared as Json, `${operation.pointer}/responses/${response.status}`);
  const errors: string[] = [];

  const headers = (responseObject.headers ?? {}) as Record<string, Json>;
  for (const [headerName, headerDecl] of Object.entries(headers)) {
    const raw = response.headers[headerName.toLowerCase()];
    if (raw === undefined) continue;
    const { pointer: headerPointer } = deref(headerDecl, `${pointer}/headers/${escape(headerName)}`);
    const schemaType = ((deref(headerDecl, '').value.schema ?? {}) as Json).type;
    const value = schemaType === 'integer' ? Number(raw) : String(raw);
    const validate = validatorAt(`${headerPointer}/schema`);
    if (!validate(value)) errors.push(`header ${headerName}: ${ajv.errorsText(validate.errors)}`);
  }

  const content = responseObject.content as Json | undefined;
  if (!content) {
    if (response.body.length > 0) errors.push(`${name} ${response.status} documents no body but one was sent`);
    return { valid: errors.length === 0, operation: name, errors };
  }
  const contentType =
    String(response.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const media = content[contentType] as Json | undefined;
  if (!media) {
    errors.push(`${name} ${response.status}: content type "${contentType}" is not documented (${Object.keys(content).join(', ')})`);
    return { valid: false, operation: name, errors };
  }
  if (contentType === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      errors.push(`${name} ${response.status}: body is not JSON`);
      return { valid: false, operation: name, errors };
    }
    const validate = validatorAt(`${pointer}/content/${escape(contentType)}/schema`);
    if (!validate(body)) {
      errors.push(`${name} ${response.status} body: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
    }
  }
  return { valid: errors.length === 0, operation: name, errors };
}

export class ContractViolation extends Error {
  constructor(
    readonly result: ValidationResult,
    response: ObservedResponse,
  ) {
    super(`response violates spec/openapi.yaml:\n  ${result.errors.join('\n  ')}\n  body: ${response.body.slice(0, 2000)}`);
    this.name = 'ContractViolation';
  }
}

/** Throws a ContractViolation when the response does not match the spec. */
export function assertValidResponse(response: ObservedResponse): void {
  const result = validateResponse(response);
  if (!result.valid) throw new ContractViolation(result, response);
}

/**
 * Checks the body of an outbound webhook (what svc POSTs to an endpoint) against the top-level `webhooks` of the
 * spec: the event its `type` names, `{type, timestamp, data}` with nothing missing or extra.
 */
export function validateWebhookEvent(body: string): ValidationResult {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return { valid: false, errors: ['webhook body is not JSON'] };
  }
  const type = (event as { type?: unknown } | null)?.type;
  const webhooks = (spec.webhooks ?? {}) as Record<string, unknown>;
  if (typeof type !== 'string' || !(type in webhooks))
    return { valid: false, errors: [`webhook type ${JSON.stringify(type)} is not in the spec's webhooks`] };
  const validate = validatorAt(`/webhooks/${escape(type)}/post/requestBody/content/application~1json/schema`);
  if (validate(event)) return { valid: true, operation: `webhook ${type}`, errors: [] };
  return { valid: false, operation: `webhook ${type}`, errors: [ajv.errorsText(validate.errors, { separator: '; ' })] };
}
