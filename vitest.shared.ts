import { defineConfig } from 'vitest/config';

/** The one vitest configuration every package extends (see each package's vitest.config.ts). */
export const baseVitest = defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    passWithNoTests: true,
  },
});
