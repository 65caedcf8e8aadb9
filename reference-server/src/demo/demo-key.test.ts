import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDemoKey, removeDemoFiles, writeDemoKey } from './demo-key';

describe('the demo key across restarts', () => {
  it('is written 0600, read back, and gone after --fresh', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-demo-'));
    const file = join(dir, 'svc-demo.key');
    const key = `svc_live_${'a'.repeat(43)}`;
    expect(readDemoKey(file)).toBeUndefined();
    writeDemoKey(file, key);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(readDemoKey(file)).toBe(key);
    await writeFile(join(dir, 'svc-demo.sqlite'), 'x');
    removeDemoFiles([join(dir, 'svc-demo.sqlite'), file]);
    expect(readDemoKey(file)).toBeUndefined();
  });

  it('pnpm start prints the same key after a restart, a new one after --fresh, and names a port in use', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-demo-'));
    const port = await freePort();
    const first = await runDemo(dir, port, []);
    const again = await runDemo(dir, port, []);
    expect(again.key).toBe(first.key);
    const fresh = await runDemo(dir, port, ['--fresh']);
    expect(fresh.key).not.toBe(first.key);

    const blocker = createServer().listen(port, '127.0.0.1');
    await once(blocker, 'listening');
    try {
      const busy = spawnSync(process.execPath, [demoBin], {
        cwd: dir,
        env: { ...process.env, PORT: String(port), DATABASE_URL: '' },
        encoding: 'utf8',
      });
      expect(busy.status).toBe(1);
      expect(busy.stderr).toContain(
        `Port ${port} is already in use (another svc demo or server?). Stop it, or choose another port: PORT=${port + 1} pnpm start`,
      );
      expect(busy.stderr).not.toContain('EADDRINUSE');
    } finally {
      blocker.close();
    }
  }, 60_000);
});

const demoBin = fileURLToPath(new URL('../../dist/demo.js', import.meta.url));

/** Starts the built demo in `dir` until its banner shows the key, then stops it (SIGTERM). */
async function runDemo(dir: string, port: number, args: string[]): Promise<{ key: string }> {
  const child = spawn(process.execPath, [demoBin, ...args], { cwd: dir, env: { ...process.env, PORT: String(port), DATABASE_URL: '' } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  try {
    await expect.poll(() => /svc_live_[\w-]{43}/.exec(out)?.[0], { timeout: 30_000, interval: 50 }).toBeDefined();
    return { key: /svc_live_[\w-]{43}/.exec(out)![0] };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
