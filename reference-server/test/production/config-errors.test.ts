import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A configuration error stops the start with one line naming the variable and the fix, and exit code 2: no
// stack trace for an operator to read through (the built programs, as an operator runs them).
const serverBin = fileURLToPath(new URL('../../bin/svc-reference-server.js', import.meta.url));
const demoEntry = fileURLToPath(new URL('../../dist/demo.js', import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), 'svc-config-errors-'));

function run(entry: string, args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [entry, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'sqlite::memory:', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('configuration errors', () => {
  it.each<[string, string[], Record<string, string>, string]>([
    ['LOG_LEVEL=loud', [], { LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    ['PORT=eighty', [], { PORT: 'eighty' }, 'PORT must be a port number (0 to 65535), got "eighty"'],
    ['a short SVC_SECRET_KEY', [], { SVC_SECRET_KEY: 'short' }, 'SVC_SECRET_KEY must be at least'],
    [
      'TRUST_PROXY=everyone (read in http/trust-proxy.ts)',
      [],
      { TRUST_PROXY: 'everyone' },
      'TRUST_PROXY: "everyone" is neither a hop count',
    ],
    [
      'SVC_REQUEST_TIMEOUT_MS=-1 (read in http/connection-limits.ts)',
      [],
      { SVC_REQUEST_TIMEOUT_MS: '-1' },
      'SVC_REQUEST_TIMEOUT_MS must be a positive integer',
    ],
    ['SVC_WORKSPACE_CREATORS=team.example', [], { SVC_WORKSPACE_CREATORS: 'team.example' }, 'SVC_WORKSPACE_CREATORS holds emails'],
    ['SVC_RATE_LIMITS=lead=lots (read in http/rate-limit-config.ts)', [], { SVC_RATE_LIMITS: 'lead=lots' }, 'SVC_RATE_LIMITS'],
    ['SVC_STRIPE_CLIENT_ID alone', [], { SVC_STRIPE_CLIENT_ID: 'ca_x' }, 'set SVC_STRIPE_SECRET_KEY too'],
    ['SVC_OIDC_ISSUER alone', [], { SVC_OIDC_ISSUER: 'https://idp.example' }, 'set SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET too'],
    ['--port abc', ['--port', 'abc'], {}, '--port must be a port number, got abc'],
    ['the unknown flag --prot', ['--prot', '1'], {}, "Unknown option '--prot'"],
  ])('svc-reference-server, %s: one line on stderr, no stack, exit code 2', (_case, args, env, message) => {
    const result = run(serverBin, args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^svc-reference-server: /);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it.each<[string, string[], Record<string, string>, string]>([
    ['a short SVC_SECRET_KEY', [], { SVC_SECRET_KEY: 'short' }, 'SVC_SECRET_KEY must be at least'],
    ['the unknown flag --frsh', ['--frsh'], {}, "Unknown option '--frsh'"],
  ])('the demo (pnpm start), %s: one line, exit code 2', (_case, args, env, message) => {
    const result = run(demoEntry, args, env);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^pnpm start: /)]);
    expect(result.stderr).toContain(message);
  });
});
