import { generateSync } from 'json-schema-faker';
import type { BodyVariant, FuzzCase } from './cases';
import { spec, type FuzzOperation, type Json } from './operations';
import type { Fixtures } from './target';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** The body is over the 64 KiB limit (it must answer 413 when its media type is read). */
  oversized: boolean;
}

const contentTypes = {
  json: 'application/json',
  jsonCharset: 'application/json; charset=utf-8',
  upperJson: 'APPLICATION/JSON',
  text: 'text/plain',
  xml: 'application/xml',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data; boundary=fuzz',
} as const;

/** Turns a drawn case into the exact request to send; pure, so a seed always gives the same request. */
export function materialise(op: FuzzOperation, c: FuzzCase, fx: Fixtures): FuzzRequest {
  const pick = <T>(values: T[]): T => values[c.pick % values.length]!;
  const headers: Record<string, string> = {};
  const auth = authorization(op, c, fx, pick);
  if (auth.authorization !== undefined) headers.authorization = auth.authorization;
  if (auth.cookie !== undefined) headers.cookie = auth.cookie;
  if (c.origin !== undefined) headers.origin = c.origin;
  for (const p of op.parameters.filter((x) => x.in === 'header'))
    if (c.header !== undefined) headers[p.name.toLowerCase()] = headerSafe(c.header);

  const url = pathFor(op, c, fx, pick) + queryFor(op, c, fx, pick);
  const declared = op.contentTypes[0] ?? 'application/json';
  const { payload, oversized } = bodyFor(op, c.body, fx, pick, declared);
  if (payload !== undefined && c.contentType !== 'missing') {
    headers['content-type'] = c.contentType === 'declared' ? declared : contentTypes[c.contentType];
  }
  return { method: op.method, url, headers, ...(payload === undefined ? {} : { payload }), oversized };
}

const matching = { programKey: 'ownKey', loginToken: 'loginToken', dashboardSession: 'dashboard', none: 'none' } as const;

function authorization(op: FuzzOperation, c: FuzzCase, fx: Fixtures, pick: <T>(v: T[]) => T): { authorization?: string; cookie?: string } {
  const [own, other] = fx.programs;
  const variant = c.auth === 'matching' ? matching[op.credential] : c.auth;
  switch (variant) {
    case 'none':
      return {};
    case 'ownKey':
      return { authorization: `Bearer ${own!.key}` };
    case 'otherKey':
      return { authorization: `Bearer ${other!.key}` };
    case 'loginToken':
      return { authorization: `Bearer ${fx.loginToken}` };
    case 'dashboard':
      return { cookie: fx.dashboardCookies[0]! };
    case 'otherDashboard':
      return { cookie: fx.dashboardCookies[1]! };
    case 'unknownKey':
      return { authorization: `Bearer svc_${'x'.repeat(c.pick % 50)}` };
    case 'emptyBearer':
      return { authorization: 'Bearer ' };
    case 'basic':
      return { authorization: 'Basic Zm9vOmJhcg==' };
    case 'raw':
      return {
        authorization: headerSafe(pick(fx.customerKeys) + String(c.header ?? '')),
        cookie: `svc_session=${headerSafe(String(c.header ?? 'x'))}`,
      };
  }
}

/** Header values must be visible ASCII (anything else is refused by the HTTP client before the server sees it). */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').trim();
}

function pathFor(op: FuzzOperation, c: FuzzCase, fx: Fixtures, pick: <T>(v: T[]) => T): string {
  return op.template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const variants: Record<FuzzCase['pathParam'], string> = {
      ownProgram: String(fx.programs[0]!.id),
      otherProgram: String(fx.programs[1]!.id),
      missingProgram: String(999_999 + (c.pick % 1000)),
      string: name === 'short_link' ? pick(fx.shortLinks) : 'abc',
      negative: '-1',
      huge: '99999999999999999999999',
      unicode: encodeURIComponent('程序🎯'),
    };
    return variants[c.pathParam];
  });
}

function queryFor(op: FuzzOperation, c: FuzzCase, fx: Fixtures, pick: <T>(v: T[]) => T): string {
  const params = op.parameters.filter((p) => p.in === 'query');
  if (params.length === 0 || c.query.kind === 'omit') return '';
  const search = new URLSearchParams();
  for (const p of params) {
    if (c.query.kind === 'random') search.set(p.name, c.query.text);
    else if (p.name === 'state') search.set(p.name, pick(fx.loginStates));
    else search.set(p.name, queryText(generate(p.schema, { seed: c.pick })));
  }
  return `?${search.toString()}`;
}

function bodyFor(
  op: FuzzOperation,
  body: BodyVariant,
  fx: Fixtures,
  pick: <T>(v: T[]) => T,
  declared: string,
): { payload?: string; oversized: boolean } {
  const encode = (value: unknown) => (declared === 'application/x-www-form-urlencoded' ? formEncode(value) : JSON.stringify(value));
  switch (body.kind) {
    case 'empty':
      return { oversized: false };
    case 'json':
      return { payload: JSON.stringify(body.value), oversized: false };
    case 'schema':
      return { payload: encode(schemaBody(op, body.seed, body.optionals, body.fixtures ? fx : undefined, pick)), oversized: false };
    case 'mutated': {
      const value = schemaBody(op, body.seed, true, body.fixtures ? fx : undefined, pick);
      return { payload: encode(mutate(op, value, body)), oversized: false };
    }
    case 'invalidJson': {
      const valid = JSON.stringify(schemaBody(op, body.seed, true, fx, pick) ?? { a: body.text });
      const broken = [
        valid.slice(0, Math.max(1, valid.length - 1)),
        `{${body.text}`,
        `{"affiliate_url": ${body.text}}`,
        `${valid},`,
        `{'single': 'quotes'}`,
        `\u0000${valid}`,
      ];
      return { payload: broken[body.style % broken.length]!, oversized: false };
    }
    case 'huge': {
      const unit = body.unicode ? '🎯é\u202e' : 'x';
      const text = unit.repeat(Math.ceil(body.size / unit.length)).slice(0, body.size);
      const value = schemaBody(op, body.seed, true, fx, pick);
      const key = Object.keys(isObject(value) ? value : {})[0] ?? 'field';
      return { payload: encode({ ...(isObject(value) ? value : {}), [key]: text }), oversized: false };
    }
    case 'oversized':
      return { payload: JSON.stringify({ affiliate_url: 'x'.repeat(body.size), transaction_id: `big-${body.seed}` }), oversized: true };
  }
}

/**
 * json-schema-faker over a spec schema. It cannot satisfy every construct (e.g. `anyOf` of `required` lists
 * under `additionalProperties: false`); then the case starts from an empty object and the mutations still apply.
 */
/** A generated query value as its text: strings as they are, anything else as JSON (`5`, `true`), absent as empty. */
const queryText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

function generate(schema: Json, options: Parameters<typeof generateSync>[1]): unknown {
  try {
    return generateSync({ ...schema, components: spec.components }, options);
  } catch {
    return {};
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A body valid for the schema (json-schema-faker, seeded), optionally pointed at real fixtures so deep paths run. */
function schemaBody(op: FuzzOperation, seed: number, optionals: boolean, fx: Fixtures | undefined, pick: <T>(v: T[]) => T): unknown {
  if (!op.bodySchema) return {};
  const value = generate(op.bodySchema, { seed, alwaysFakeOptionals: optionals, maxLength: 300 });
  if (!fx || !isObject(value)) return value;
  const real: Record<string, unknown> = {
    affiliate_url: `https://shop.example.com/landing?aff=${pick(fx.shortLinks)}`,
    customer_key: pick(fx.customerKeys),
    click_id: pick(fx.clickIds),
    transaction_id: pick(fx.transactionIds),
    program_id: pick(fx.programs).id,
    state: pick(fx.loginStates),
  };
  for (const key of Object.keys(value)) if (key in real) value[key] = real[key];
  if (isObject(value.additional_data) && 'program_id' in value.additional_data) value.additional_data.program_id = pick(fx.programs).id;
  return value;
}

function mutate(op: FuzzOperation, value: unknown, body: Extract<BodyVariant, { kind: 'mutated' }>): unknown {
  const target: Record<string, unknown> = isObject(value) ? { ...value } : {};
  const props = Object.keys((op.bodySchema && resolve(op.bodySchema).properties) ?? {});
  const keys = props.length > 0 ? props : Object.keys(target);
  const key = keys.length > 0 ? keys[body.key % keys.length]! : 'field';
  switch (body.mutation) {
    case 'wrongType':
      target[key] = typeof target[key] === typeof body.value ? [body.value] : body.value;
      break;
    case 'drop':
      delete target[key];
      break;
    case 'extra':
      target[`unexpected_${body.key % 7}`] = body.value;
      break;
    case 'null':
      target[key] = null;
      break;
    case 'unicode':
      target[key] = `\u0000🎯${'\u0301'.repeat(3)}\ud800 ﷽ \u202e${String(body.value)}`;
      break;
    case 'hugeString':
      target[key] = 'Z'.repeat(10_000 + (body.key % 40_000));
      break;
    case 'negative':
      target[key] = [-1, 0, 1.5, Number.MAX_SAFE_INTEGER + 2, -0, 1e308][body.key % 6];
      break;
  }
  return target;
}

function resolve(schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return resolve(
    ref
      .split('/')
      .slice(1)
      .reduce<unknown>((n, k) => (n as Json)[k], spec) as Json,
  );
}

function formEncode(value: unknown): string {
  if (!isObject(value)) return String(value);
  return new URLSearchParams(
    Object.entries(value).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ).toString();
}
