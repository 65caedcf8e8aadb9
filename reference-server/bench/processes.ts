import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, spawnServer, type ServerProcess } from '../test/scale/server-process';

export interface BareProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The bare Fastify baseline as its own process (bench/bare-server.ts). */
export async function spawnBare(): Promise<BareProcess> {
  const port = await freePort();
  const entry = fileURLToPath(new URL('./bare-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The reference server, built, as production runs it, with the rate limits off (they would cap the load). */
export function spawnBenchServer(databaseUrl: string, nodeArgs: string[] = []): Promise<ServerProcess> {
  return spawnServer({ databaseUrl, env: { SVC_RATE_LIMITS: 'off' }, nodeArgs });
}
