import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { baseVitest } from '../vitest.shared.ts';

export default mergeConfig(
  baseVitest,
  defineConfig({
    test: {
      name: 'reference-server',
      // The dashboard's scripts and stylesheet, built from src/dashboard/client (scripts/build-dashboard.ts).
      globalSetup: [fileURLToPath(new URL('./test/global-setup.ts', import.meta.url))],
    },
  }),
);
