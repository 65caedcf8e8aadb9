#!/usr/bin/env node
// `pnpm lint` checks .github/workflows against GitHub's workflow schema with action-validator's WebAssembly build
// (an npm package: nothing downloaded at run time, runs on Node 20).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';

const dir = fileURLToPath(new URL('../.github/workflows/', import.meta.url));
const files = readdirSync(dir).filter((file) => /\.ya?ml$/.test(file));
let failed = false;
for (const file of files) {
  const { errors } = validateWorkflow(readFileSync(join(dir, file), 'utf8'));
  for (const error of errors)
    console.error(`.github/workflows/${file}: ${error.title ?? error.code}: ${error.detail ?? JSON.stringify(error)}`);
  failed ||= errors.length > 0;
}
if (files.length === 0) {
  console.error('.github/workflows holds no workflow');
  failed = true;
}
if (failed) process.exit(1);
console.log(`${files.length} workflows valid`);
