import { defineConfig } from 'tsup';
import { baseTsup } from '../../tsup.base';

// ES2017: the tracker must run in every browser that has `fetch`.
export default defineConfig({ ...baseTsup, entry: ['src/index.ts'], target: 'es2017' });
