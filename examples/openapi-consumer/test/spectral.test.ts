import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { writePublicContract } from '../src/public-contract';
import { runNode } from '../src/run';

const require = createRequire(import.meta.url);
const spectralCli = require.resolve('@stoplight/spectral-cli/dist/index.js');
const ruleset = fileURLToPath(new URL('../../../.spectral.yaml', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));

interface Finding {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

let contract: string;
beforeAll(async () => {
  contract = await writePublicContract('openapi.lint.json');
});

describe('Spectral (spectral:oas and the OWASP API Security ruleset) on the public contract', () => {
  it('reports no error', async () => {
    const run = await runNode(spectralCli, ['lint', contract, '--ruleset', ruleset, '--format', 'json', '--quiet'], packageDir);
    const findings = JSON.parse(run.stdout) as Finding[];
    const errors = findings.filter((finding) => finding.severity === 0).map((f) => `${f.code} at ${f.path.join('/')}: ${f.message}`);
    expect(errors).toEqual([]);
    // Spectral exits 0 only when it linted the file with the ruleset it was given.
    expect(run.code, run.stderr).toBe(0);
  });
});
