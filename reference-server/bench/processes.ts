import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnServer, type ServerProcess } from '../test/scale/server-process';

/** The PostgreSQL server the benches use: BENCH_DATABASE_URL, else DATABASE_URL when it names PostgreSQL, else the local one. */
export const benchPostgresUrl =
  process.env.BENCH_DATABASE_URL ??
  (process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/test');

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

export interface BenchServer extends ServerProcess {
  /** Where the server's memory samples go (bench/memory-sampler.mjs), read per run by bench/load.ts. */
  memoryFile: string;
}

const sampler = fileURLToPath(new URL('./memory-sampler.mjs', import.meta.url));
let servers = 0;

/**
 * The reference server, built, as production runs it, with the rate limits off (they would cap the load), and the
 * memory sampler loaded into it.
 */
export async function spawnBenchServer(databaseUrl: string, nodeArgs: string[] = []): Promise<BenchServer> {
  const memoryFile = join(tmpdir(), `svc-bench-memory-${process.pid}-${++servers}.txt`);
  const server = await spawnServer({
    databaseUrl,
    env: { SVC_RATE_LIMITS: 'off', SVC_BENCH_MEMORY: memoryFile },
    nodeArgs: ['--import', sampler, ...nodeArgs],
    outputUntilListening: true,
  });
  const stop = server.stop.bind(server);
  return {
    ...server,
    memoryFile,
    async stop(signal) {
      const code = await stop(signal);
      rmSync(memoryFile, { force: true });
      return code;
    },
  };
}

/** The JSON content type every bench request sends. */
export const json = { 'content-type': 'application/json' };

/** A program paying 10 % of every sale, one partner and a link: what every tracking bench sends its requests to. */
export async function benchProgram(server: ServerProcess): Promise<{
  /** Headers of the key-authenticated routes (lead, sale). */
  auth: Record<string, string>;
  /** A click's body, on the link. */
  clickBody: string;
}> {
  const program = await server.control.createProgram({ commission_type: 'recurring_percent', commission_rate: 10 });
  const partner = await server.control.createPartner({ program_id: program.id });
  const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
  return {
    auth: { ...json, authorization: `Bearer ${program.api_token}` },
    clickBody: JSON.stringify({ affiliate_url: `https://shop.example.com/landing?aff=${link.short_link}&utm_source=bench` }),
  };
}
