import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { root } from '../src/workspace';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('pnpm start and Ctrl+C', () => {
  it('ends quietly with exit code 0: the demo closes its database and pnpm reports no failure', async () => {
    // Its own process group, as a terminal makes one: Ctrl+C is SIGINT to every process in it.
    const start = spawn('pnpm', ['start'], {
      cwd: root,
      detached: true,
      env: { ...process.env, PORT: String(await freePort()), DATABASE_URL: 'sqlite::memory:', NO_COLOR: '1' },
    });
    let output = '';
    const collect = (chunk: Buffer) => (output += chunk.toString());
    start.stdout.on('data', collect);
    start.stderr.on('data', collect);
    const exited = new Promise<number | null>((resolve) => start.on('exit', (code) => resolve(code)));
    await expect.poll(() => output, { timeout: 110_000, interval: 200 }).toContain('svc demo is running');
    expect(output).toMatch(/✓ listening on http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s/);
    process.kill(-start.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGINT: finishing in-flight requests, then closing the database');
    expect(output).not.toContain('ELIFECYCLE');
  }, 120_000);
});
