import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type * as Sdk from '../../src/index';

// The built ESM and CJS copies, as a process that loads both would have them (`pnpm test` builds first). Loaded by
// URL, so the type-check (`pnpm lint`, before any build) takes their types from the source.
const esm = (await import(new URL('../../dist/index.js', import.meta.url).href)) as typeof Sdk;
const cjs = createRequire(import.meta.url)('../../dist/index.cjs') as typeof Sdk;
const meta = { requestId: 'req-1', rateLimit: undefined };

describe('errors across an ESM and a CJS copy of the SDK', () => {
  it("are not instanceof the other copy's classes, but isSvcError recognises them both ways", () => {
    const fromCjs = new cjs.SvcTimeoutError('No response', meta);
    const fromEsm = new esm.SvcApiError(
      400,
      { data: null, error: { status: 400, name: 'BadRequestError', message: 'x', details: {} } },
      meta,
    );
    expect(fromCjs instanceof esm.SvcError).toBe(false);
    expect(esm.isSvcError(fromCjs)).toBe(true);
    expect(cjs.isSvcError(fromEsm)).toBe(true);
    expect(fromCjs).toMatchObject({ name: 'SvcTimeoutError', requestId: 'req-1' });
  });

  it('recognise nothing else', () => {
    for (const value of [new Error('x'), { code: 'timeout' }, null, undefined, 'SvcError']) expect(esm.isSvcError(value)).toBe(false);
  });
});

describe('the CJS copy', () => {
  it('carries ky inside: ky ships ESM only, and Node 18 cannot require() it', async () => {
    const source = await readFile(new URL('../../dist/index.cjs', import.meta.url), 'utf8');
    expect(source).not.toMatch(/require\(["']ky["']\)/);
    // A message of ky's own source, so ky itself is in the file, not just the SDK's call to it.
    expect(source).toContain('must not begin with a slash when using');
  });
});
