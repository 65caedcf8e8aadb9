import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { openStore, uniqueSchemaName, type Store } from '../store/db';

// The app loads Fastify's schema compilers on first use (schema-compilers.ts); a route that declares schemas, as a
// user's test may add one, is validated and serialized as with Fastify's defaults, header names lower-cased included.
let store: Store;
let app: FastifyInstance;
beforeAll(async () => {
  store = await openStore(process.env.DATABASE_URL ?? 'sqlite::memory:', { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
  app = buildApp({ store });
  app.post<{ Body: { n: number } }>(
    '/probe',
    {
      attachValidation: true,
      schema: {
        headers: { type: 'object', required: ['X-Probe'], properties: { 'X-Probe': { type: 'string', minLength: 3 } } },
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { ok: { type: 'boolean' }, error: { type: 'string' } } } },
      },
    },
    (request) => ({ ok: request.validationError === undefined, error: request.validationError?.message, unlisted: 'dropped' }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await store.close();
});

const probe = async (headers: Record<string, string>, body: unknown) =>
  (
    await app.inject({
      method: 'POST',
      url: '/probe',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    })
  ).body;

describe("Fastify's schema compilers, loaded on first use", () => {
  it('validate a header schema written in mixed case against the lower-cased request headers', async () => {
    expect(await probe({ 'X-Probe': 'abc' }, { n: 1 })).toBe('{"ok":true}');
    expect(await probe({}, { n: 1 })).toBe(`{"ok":false,"error":"headers must have required property 'x-probe'"}`);
    expect(await probe({ 'x-probe': 'ab' }, { n: 1 })).toBe('{"ok":false,"error":"headers/x-probe must NOT have fewer than 3 characters"}');
  });

  it('validate the body with Ajv and serialize only what the response schema lists', async () => {
    expect(await probe({ 'x-probe': 'abc' }, { n: 'one' })).toBe('{"ok":false,"error":"body/n must be integer"}');
  });
});
