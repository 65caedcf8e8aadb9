import esbuild from 'rollup-plugin-esbuild';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

// One IIFE whose only global is `svc`, ES2017 so that it runs in every browser with `fetch`.
export default {
  input: 'src/svc-tracker.ts',
  output: { file: 'dist/svc-tracker.js', format: 'iife', strict: false, sourcemap: false },
  plugins: [
    nodeResolve({ browser: true }),
    esbuild({ target: 'es2017' }),
    terser({ ecma: 2017, compress: { passes: 3, unsafe_arrows: true }, mangle: { toplevel: true }, format: { comments: false } }),
  ],
};
