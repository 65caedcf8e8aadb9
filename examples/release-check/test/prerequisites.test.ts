import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../src/workspace';

/** scripts/check-prerequisites.mjs, run first by `pnpm test`, with `env` on top of a PATH that has only Node. */
function check(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [join(root, 'scripts/check-prerequisites.mjs')], {
    env: { PATH: '/nonexistent', ...env },
    encoding: 'utf8',
  });
  return { code: run.status, stderr: run.stderr };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('pnpm test checks its prerequisites first', () => {
  it('names the install command and the skip variable when a browser is missing', () => {
    const missing = check({ CHROMIUM_PATH: '/nonexistent/chromium', FIREFOX_PATH: process.execPath });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Chromium not found (CHROMIUM_PATH=/nonexistent/chromium)');
    expect(missing.stderr).toContain('apt-get install -y chromium firefox-esr');
    expect(missing.stderr).toContain('SVC_SKIP_BROWSERS=1 pnpm test');
    expect(check({ CHROMIUM_PATH: process.execPath }).stderr).toContain('Firefox ESR not found (firefox-esr on PATH)');
  });

  it('passes with both browsers found, or with the browser tests skipped', () => {
    expect(check({ CHROMIUM_PATH: process.execPath, FIREFOX_PATH: process.execPath })).toEqual({ code: 0, stderr: '' });
    expect(check({ SVC_SKIP_BROWSERS: '1' })).toEqual({ code: 0, stderr: '' });
  });

  it('checks PostgreSQL only when DATABASE_URL names one', async () => {
    const port = await closedPort();
    const down = check({ SVC_SKIP_BROWSERS: '1', DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${port}/test` });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`PostgreSQL not reachable at 127.0.0.1:${port} (DATABASE_URL)`);
    expect(down.stderr).not.toContain('secret');
    expect(check({ SVC_SKIP_BROWSERS: '1', DATABASE_URL: 'sqlite::memory:' }).code).toBe(0);
  });
});
