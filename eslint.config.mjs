// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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

const sqlAndDrivers = ['kysely', 'pg', 'better-sqlite3', 'ioredis'];

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

  // The layers of the reference server (ARCHITECTURE.md, "The reference server").
  {
    files: ['reference-server/src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'fastify', message: 'domain/ is pure: no Fastify (pass what a rule needs as arguments).' },
            ...sqlAndDrivers.map((name) => ({ name, allowTypeImports: true, message: 'domain/ writes no SQL: put the query in store/.' })),
          ],
          patterns: [
            { group: ['**/routes/**', '**/http/**'], message: 'domain/ never reaches up into routes/ or http/.' },
            { group: ['@fastify/*'], message: 'domain/ is pure: no Fastify.' },
          ],
        },
      ],
    },
  },
  {
    files: ['reference-server/src/routes/**/*.ts', 'reference-server/src/http/**/*.ts'],
    ignores: ['reference-server/src/routes/test-control/**', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          // Redis is not the database: it holds http/'s own rate-limit counters.
          paths: sqlAndDrivers
            .filter((name) => name !== 'ioredis')
            .map((name) => ({ name, allowTypeImports: true, message: 'routes/ and http/ reach the database only through domain/.' })),
          patterns: [
            {
              group: ['**/store/**', '!**/store/db'],
              allowTypeImports: true,
              message: 'routes/ and http/ reach store/ only through domain/ (test-control fixtures excepted).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['reference-server/src/store/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/routes/**', '**/http/**', '**/domain/**'], allowTypeImports: true, message: 'store/ is the bottom layer.' },
          ],
        },
      ],
    },
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
