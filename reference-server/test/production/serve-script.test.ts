import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `pnpm serve` is how docs/deploying.md and the README run the server from a clone (the program's name is not a
// package name, so `npx svc-reference-server` fetches nothing of ours).
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

describe('pnpm serve (the root script)', () => {
  it('runs svc-reference-server: --help prints the usage, every variable and the health checks', () => {
    const result = spawnSync('pnpm', ['--silent', 'serve', '--help'], { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^svc-reference-server: the svc service/);
    expect(result.stdout).toContain('Usage: svc-reference-server [--port <n>] [--host <address>]');
    expect(result.stdout).toMatch(/^ {2}DATABASE_URL +sqlite:\.\/svc\.sqlite/m);
    expect(result.stdout).toContain('GET /healthz');
    expect(result.stdout).toContain('GET /readyz');
  });
});
