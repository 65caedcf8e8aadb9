import { defineConfig, mergeConfig } from 'vitest/config';
import { baseVitest } from '../../vitest.shared.ts';

export default mergeConfig(
  baseVitest,
  defineConfig({
    test: {
      name: 'cli',
      // The end-to-end tests spawn the built binary: build it once, before any test file runs.
      globalSetup: ['./test/build-binary.ts'],
    },
  }),
);
