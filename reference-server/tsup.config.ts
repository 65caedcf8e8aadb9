import { defineConfig } from 'tsup';
import { baseTsup } from '../tsup.base';

export default defineConfig({
  ...baseTsup,
  // The SQLite checkpointer's worker thread is a file of its own, beside the bundles that start it (store/checkpoint).
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    demo: 'src/demo.ts',
    'testing/index': 'src/testing/index.ts',
    'sqlite-checkpointer': 'src/store/checkpoint/worker.ts',
  },
  format: ['esm'],
  // Kysely ships as some 260 ES modules, and loading them was the largest part of a start (docs/performance-notes.md,
  // "Start-up and memory"); bundled in, only what the server uses is loaded, from the one file. Fastify and
  // @fastify/static with their dependencies are some 200 CommonJS files, each found, read and compiled on its own: bundled
  // too, they take about 90 ms off every import (docs/performance-notes.md, "Start-up, second pass").
  noExternal: ['kysely', 'fastify', '@fastify/static'],
  // Fastify's schema compilers stay out: they are loaded from Fastify's folder, and only for a route with a schema
  // (src/http/schema-compilers.ts).
  external: ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'],
  // Bundled CommonJS requires Node's modules and the packages left out (pino, light-my-request): an ES module has no
  // `require` of its own, so each file makes one.
  banner: {
    js: "import { createRequire as __svcCreateRequire } from 'node:module';\nconst require = __svcCreateRequire(import.meta.url);",
  },
  target: 'node20',
  // dist/dashboard is the dashboard's browser code (scripts/build-dashboard.ts, run after tsup), replaced file by file
  // in place: never emptied, so a server or test running meanwhile always finds it.
  clean: ['!dashboard/**'],
});
