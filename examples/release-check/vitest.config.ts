import { defineConfig, mergeConfig } from 'vitest/config';
import { baseVitest } from '../../vitest.shared';

export default mergeConfig(baseVitest, defineConfig({ test: { name: 'release-check' } }));
