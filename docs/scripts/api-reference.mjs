// Writes the HTTP API reference (docs/reference/api/*.md) from spec/openapi.yaml: a page per tag with its
// operations, one page of schemas and one of outbound webhook events. Markdown pages rather than an embedded
// Redoc page: they are searched by the site's local search, link-checked by its build, and need no script from a
// CDN (Redoc's static page loads its bundle from cdn.redocly.com).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { withoutCitations } from './plain.mjs';

const root = new URL('../../', import.meta.url);
const out = new URL('docs/reference/api/', root);
const spec = parse(await readFile(new URL('spec/openapi.yaml', root), 'utf8'));
/**
 * The spec's prose, as user docs say it: no citations of the rules' headings and no "Decision" labels (the spec
 * marks where svc chose; a reader only needs the rule), and no raw `<` or `{{` outside code, which the site's
 * Vue templates would read as markup.
 */
export function plain(text = '') {
  return withoutCitations(text)
    .split('`')
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;').replace(/\{\{/g, '&#123;&#123;')))
    .join('`')
    .trim();
}

const oneLine = (text) => plain(text).replace(/\n+/g, ' ').replace(/\|/g, '\\|');
const refName = (ref) => ref.split('/').pop();
const anchor = (name) => name.toLowerCase().replace(/[^a-z0-9-]/g, '-');
const schemaLink = (name) => `[${name}](./schemas#${anchor(name)})`;

function typeOf(schema) {
  if (!schema) return '';
  if (schema.$ref) return schemaLink(refName(schema.$ref));
  if (schema.enum) return schema.enum.map((v) => `\`${v}\``).join(', ');
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    if (schema[key]) return schema[key].map(typeOf).join(key === 'allOf' ? ' and ' : ' or ');
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  if (type === 'array') return `list of ${typeOf(schema.items) || 'values'}`;
  return type ?? 'any';
}

function propertiesTable(schema) {
  const props = schema?.properties;
  if (!props || Object.keys(props).length === 0) return '';
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(props).map(
    ([name, prop]) =>
      `| \`${name}\` | ${typeOf(prop).replace(/\|/g, '\\|')} | ${required.has(name) ? 'yes' : ''} | ${oneLine(prop.description)} |`,
  );
  return ['| Field | Type | Required | |', '|---|---|---|---|', ...rows].join('\n');
}

const resolve = (item, kind) => (item?.$ref ? spec.components[kind][refName(item.$ref)] : item);

function operationSection(method, path, op) {
  const lines = [`## ${op.summary ?? `${method.toUpperCase()} ${path}`}`, '', `\`${method.toUpperCase()} ${path}\``, ''];
  if (op.description) lines.push(plain(op.description), '');
  const security = (op.security ?? spec.security ?? []).map((s) => Object.keys(s)[0] ?? 'none');
  if (security.length) lines.push(`**Authentication:** ${security.map((s) => (s === 'none' ? 'none' : `\`${s}\``)).join(' or ')}`, '');
  const params = (op.parameters ?? []).map((p) => resolve(p, 'parameters'));
  if (params.length) {
    lines.push('| Parameter | In | Type | |', '|---|---|---|---|');
    for (const p of params) lines.push(`| \`${p.name}\` | ${p.in} | ${typeOf(p.schema)} | ${oneLine(p.description)} |`);
    lines.push('');
  }
  const body = resolve(op.requestBody, 'requestBodies');
  if (body?.content) {
    for (const [type, media] of Object.entries(body.content)) {
      lines.push(`**Request body** (\`${type}\`): ${typeOf(media.schema)}`, '');
      const inline = media.schema?.$ref ? undefined : media.schema;
      const table = propertiesTable(inline);
      if (table) lines.push(table, '');
    }
  }
  lines.push('| Status | Answer |', '|---|---|');
  for (const [status, raw] of Object.entries(op.responses ?? {})) {
    const response = resolve(raw, 'responses');
    const schemas = Object.values(response?.content ?? {})
      .map((m) => typeOf(m.schema))
      .filter(Boolean);
    lines.push(`| ${status} | ${oneLine(response?.description)}${schemas.length ? ` (${schemas.join('; ')})` : ''} |`);
  }
  lines.push('');
  return lines.join('\n');
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

const methods = ['get', 'post', 'put', 'patch', 'delete'];
const index = [
  '# HTTP API reference',
  '',
  `Generated from svc's API description (OpenAPI ${spec.openapi}, version ${spec.info.version}) when the site is built.`,
  "Every request and answer of the reference server is checked against it in svc's tests.",
  '',
  '| Section | |',
  '|---|---|',
];
for (const tag of spec.tags) {
  const ops = Object.entries(spec.paths).flatMap(([path, item]) =>
    methods.filter((m) => item[m]?.tags?.includes(tag.name)).map((m) => operationSection(m, path, item[m])),
  );
  if (ops.length === 0) continue;
  index.push(`| [${tag.name}](./${tag.name}) | ${oneLine(tag.description)} |`);
  await writeFile(new URL(`${tag.name}.md`, out), [`# ${tag.name}`, '', plain(tag.description), '', ...ops].join('\n'));
}
index.push('| [Outbound webhook events](./events) | What svc sends to your webhook endpoints. |');
index.push('| [Schemas](./schemas) | Every object the API sends or accepts. |');
await writeFile(new URL('index.md', out), index.join('\n') + '\n');

const events = ['# Outbound webhook events', ''];
for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
  const op = item.post;
  events.push(`## \`${name}\``, '', plain(op.description ?? op.summary), '');
  for (const media of Object.values(op.requestBody?.content ?? {})) events.push(`**Body:** ${typeOf(media.schema)}`, '');
}
await writeFile(new URL('events.md', out), events.join('\n'));

const schemas = ['# Schemas', ''];
for (const [name, schema] of Object.entries(spec.components.schemas)) {
  schemas.push(`## ${name}`, '');
  if (schema.description) schemas.push(plain(schema.description), '');
  const table = propertiesTable(schema);
  schemas.push(table || `Type: ${typeOf(schema)}`, '');
}
await writeFile(new URL('schemas.md', out), schemas.join('\n'));
