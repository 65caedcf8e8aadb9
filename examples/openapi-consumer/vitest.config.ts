import { defineConfig, mergeConfig } from 'vitest/config';
import { baseVitest } from '../../vitest.shared.ts';

export default mergeConfig(baseVitest, defineConfig({ test: { name: 'example-openapi-consumer' } }));
