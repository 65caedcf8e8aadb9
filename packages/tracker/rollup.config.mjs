import { fileURLToPath } from 'node:url';
import esbuild from 'rollup-plugin-esbuild';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

const browserSource = fileURLToPath(new URL('../browser/src/index.ts', import.meta.url));
const featuresSource = fileURLToPath(new URL('../browser/src/features.ts', import.meta.url));

/**
 * Bundles @svc/browser from its source, with its optional features (consent, cross-domain hand-off) switched
 * on or off: rollup folds the constants and drops the dead code.
 */
function svcBrowser(features) {
  const virtual = '\0svc-features';
  return {
    name: 'svc-browser',
    async resolveId(source, importer, options) {
      if (source === '@svc/browser') return browserSource;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && resolved.id === featuresSource ? virtual : null;
    },
    load(id) {
      if (id !== virtual) return null;
      return Object.entries(features)
        .map(([name, on]) => `export const ${name} = ${on};`)
        .join('\n');
    },
  };
}

/** Properties that never leave the bundle (options, landing and consent internals), so they can be renamed. */
const internalProperties = /^(aff|handoff|clickId|expires|granted|hold|answer|baseUrl|cookieDomain|domains|programId|debug)$/;

// One IIFE whose only global is `svc`, ES2017 so that it runs in every browser with `fetch`.
const build = (file, features) => ({
  input: 'src/svc-tracker.ts',
  output: { file, format: 'iife', strict: false, sourcemap: false },
  plugins: [
    svcBrowser(features),
    nodeResolve({ browser: true, extensions: ['.ts', '.js'] }),
    esbuild({ target: 'es2017' }),
    terser({
      ecma: 2017,
      compress: { passes: 3, unsafe_arrows: true },
      mangle: { toplevel: true, properties: { regex: internalProperties } },
      format: { comments: false },
    }),
  ],
});

export default [
  build('dist/svc-tracker.js', { withConsent: false, withHandoff: false }),
  build('dist/svc-tracker.full.js', { withConsent: true, withHandoff: true }),
];
