import esbuild from 'rollup-plugin-esbuild';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

export default {
  input: 'src/svc-tracker.ts',
  output: { file: 'dist/svc-tracker.js', format: 'iife', sourcemap: false },
  plugins: [nodeResolve({ browser: true }), esbuild({ target: 'es2017' }), terser({ ecma: 2017 })],
};
