import { defineConfig } from 'tsup';
import { baseTsup } from '../../tsup.base';

const entry = {
  index: 'src/index.ts',
  cookies: 'src/cookies/index.ts',
  stripe: 'src/processor/index.ts',
  webhooks: 'src/webhooks/index.ts',
};

export default defineConfig([
  { ...baseTsup, entry, format: ['esm'] },
  // ky ships ESM only: the CJS build bundles it so `require('@svc/server')` works on Node 18 too.
  { ...baseTsup, entry, format: ['cjs'], clean: false, noExternal: ['ky'] },
]);
