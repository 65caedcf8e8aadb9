import { defineConfig } from 'tsup';
import { baseTsup } from '../tsup.base';

export default defineConfig({
  ...baseTsup,
  entry: ['src/index.ts', 'src/server.ts', 'src/demo.ts', 'src/testing/index.ts'],
  format: ['esm'],
  target: 'node20',
  // dist/dashboard is the dashboard's browser code (scripts/build-dashboard.ts, run after tsup), replaced file by file
  // in place: never emptied, so a server or test running meanwhile always finds it.
  clean: ['!dashboard/**'],
});
