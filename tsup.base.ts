import type { Options } from 'tsup';

/** The one tsup configuration every library extends: ESM + CJS, types, no minification (consumers minify). */
export const baseTsup: Options = {
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  target: 'es2022',
  splitting: false,
};
