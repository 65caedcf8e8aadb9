import { defineConfig } from 'tsup';
import { baseTsup } from '../tsup.base';

export default defineConfig({
  ...baseTsup,
  entry: ['src/index.ts', 'src/server.ts', 'src/demo.ts', 'src/testing/index.ts'],
  format: ['esm'],
  target: 'node20',
});
