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
  // "Start-up and memory"); bundled in, only what the server uses is loaded, from the one file.
  noExternal: ['kysely'],
  target: 'node20',
  // dist/dashboard is the dashboard's browser code (scripts/build-dashboard.ts, run after tsup), replaced file by file
  // in place: never emptied, so a server or test running meanwhile always finds it.
  clean: ['!dashboard/**'],
});
