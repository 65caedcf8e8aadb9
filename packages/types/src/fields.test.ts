import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { specPath } from '../scripts/generate-source';
import { shortLinkPattern } from './fields';

const schemas = parse(await readFile(specPath, 'utf8')).components.schemas;

describe('shared field rules', () => {
  it.each(['LinkCreateRequest', 'ReferralLink'])('shortLinkPattern is the pattern of %s.short_link in the spec', (schema) => {
    expect(schemas[schema].properties.short_link.pattern).toBe(shortLinkPattern.source);
  });
});
