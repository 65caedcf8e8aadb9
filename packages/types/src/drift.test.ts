import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateSource, outputPath } from '../scripts/generate-source';

describe('generated types', () => {
  it('match a fresh generation from spec/openapi.yaml (run `pnpm generate` after editing the spec)', async () => {
    const committed = await readFile(outputPath, 'utf8');
    expect(committed).toBe(await generateSource());
  });
});
