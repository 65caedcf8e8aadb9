import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configVariables } from './config-variables';
import { usage } from './server-args';

// The one table of the server's variables stays whole: every variable the configuration code reads is in it, in
// --help and in docs/deploying.md, and it lists nothing that is no longer read. The code scanned: config.ts and the
// modules it imports (they read their own variables: `http/connection-limits.ts`, …).
const configSource = readFileSync(new URL('./config.ts', import.meta.url), 'utf8');
const sources = ['./config.ts', ...[...configSource.matchAll(/from '(\.\/[^']+)'/g)].map((m) => `${m[1]!}.ts`)];
const source = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** Names read as `env.X`, `env['X']`, or handed to a reader as a string (`read('SVC_MAX_CONNECTIONS', …)`). */
function variablesRead(text: string): string[] {
  const patterns = [/\benv\.([A-Z][A-Z0-9_]*)/g, /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g, /['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"`]/g];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!));
}

const read = [...new Set(sources.flatMap((path) => variablesRead(source(path))))].sort();
const listed = configVariables.map((v) => v.name);

describe('the table of environment variables (config-variables.ts)', () => {
  it('finds the variables the configuration code reads (the scan itself works)', () => {
    expect(sources).toEqual(expect.arrayContaining(['./http/connection-limits.ts', './http/rate-limit-config.ts']));
    expect(read).toEqual(expect.arrayContaining(['DATABASE_URL', 'PORT', 'SVC_OIDC_ISSUER', 'SVC_MAX_CONNECTIONS']));
  });

  it('lists every variable read, once, and none that is not', () => {
    expect([...listed].sort()).toEqual(read);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('gives each a default and a meaning', () => {
    for (const variable of configVariables) {
      expect(variable.default, variable.name).not.toBe('');
      expect(variable.meaning, variable.name).not.toBe('');
    }
  });

  it('is printed by --help, with the health checks', () => {
    for (const name of listed) expect(usage).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(usage).toContain('GET /healthz');
    expect(usage).toContain('GET /readyz');
  });

  it("is repeated in docs/deploying.md's table of every variable", () => {
    const doc = readFileSync(new URL('../../docs/deploying.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Every variable'), doc.indexOf('\n## ', doc.indexOf('## Every variable') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    const documented = rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    expect([...documented].sort()).toEqual([...listed].sort());
    expect(section).toContain('/healthz');
    expect(section).toContain('/readyz');
  });
});
