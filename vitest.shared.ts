import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that launch Chromium or Firefox ESR (relative to their package). `SVC_SKIP_BROWSERS=1` leaves them out,
 * for a machine without the browsers (scripts/check-prerequisites.mjs names the variable when one is missing).
 */
export const browserTests = ['test/browser/**', 'test/**/browser*.test.ts', 'test/oidc/sign-in.test.ts', 'src/demo/demo.test.ts'];
const skipBrowsers = process.env.SVC_SKIP_BROWSERS === '1';

/** The one vitest configuration every package extends (see each package's vitest.config.ts). */
export const baseVitest = defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: skipBrowsers ? [...configDefaults.exclude, ...browserTests] : configDefaults.exclude,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    // A run that finds no test file fails: a mistyped path or project must not pass as green.
    passWithNoTests: false,
  },
});
