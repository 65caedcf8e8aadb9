import { defineConfig } from 'vitest/config';

// One run covers every package. The reference server's suite runs a second time on
// PostgreSQL when DATABASE_URL names one (.ci/run sets it), so both stores pass the same tests.
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      'packages/*',
      // The tracker's engine-neutral browser tests once more, in Firefox (packages/tracker/test/browser/harness.ts).
      'packages/tracker/vitest.firefox.config.ts',
      'examples/*',
      // The docs site: a page per error code, plain language (the site's build checks the links).
      'docs/vitest.config.ts',
      {
        extends: './reference-server/vitest.config.ts',
        test: { name: 'reference-server:sqlite', root: './reference-server', env: { DATABASE_URL: 'sqlite::memory:' } },
      },
      ...(postgresUrl
        ? [
            {
              extends: './reference-server/vitest.config.ts',
              test: { name: 'reference-server:postgres', root: './reference-server', env: { DATABASE_URL: postgresUrl } },
            },
          ]
        : []),
    ],
  },
});
