import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';

// Resolved from Fastify's own folder: its versions of the compilers and its own symbols, not whatever else is installed.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

type Builder = (...args: unknown[]) => unknown;

/** A compiler factory that loads `name` (a package exporting Fastify's factory of factories) when first called. */
function loadedOnFirstUse(name: string): Builder {
  let build: Builder | undefined;
  return (...args) => {
    build ??= (fromFastify(name) as () => Builder)();
    return build(...args);
  };
}

/**
 * Fastify's own schema compilers (Ajv for validation, fast-json-stringify for responses), loaded at the first route
 * that declares a schema instead of when the app is built. Fastify requires both in its constructor, and loading Ajv
 * was about a fifth of a start (docs/performance-notes.md, "Start-up, second pass"). No route of this server declares
 * a schema (requests are checked by the domain, which answers in the spec's envelopes), so a start never loads them,
 * while a route added to the app (a user's test) still gets the very compilers Fastify would have used.
 */
export const lazySchemaCompilers: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildValidator: loadedOnFirstUse('@fastify/ajv-compiler') as never,
    buildSerializer: loadedOnFirstUse('@fastify/fast-json-stringify-compiler') as never,
  },
};

/**
 * Fastify takes any compiler given in its options for a custom one (Joi, TypeBox) and then no longer lower-cases the
 * property names of a route's header schema; these are its own compilers, so the app is told so, and a header schema
 * written `X-Api-Key` matches as it does by default (schema-compilers.test.ts).
 */
export function keepBuiltInCompilerRules(app: FastifyInstance): void {
  const { kSchemaController } = fromFastify('./lib/symbols.js') as { kSchemaController: symbol };
  const controller = (app as unknown as Record<symbol, { isCustomValidatorCompiler: boolean; isCustomSerializerCompiler: boolean }>)[
    kSchemaController
  ];
  if (controller === undefined) throw new Error("Fastify's schema controller moved: src/http/schema-compilers.ts needs updating");
  controller.isCustomValidatorCompiler = false;
  controller.isCustomSerializerCompiler = false;
}
