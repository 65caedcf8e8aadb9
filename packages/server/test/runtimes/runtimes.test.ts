import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Every runtime the README names, each running the built ESM dist (dist/index.js, so `pnpm build` comes first)
// against a real reference server: Node, Bun and Deno (npm's binaries) as child processes, and workerd through
// Miniflare 3 with a module worker bundled by esbuild. Each prints the JSON report of fixtures/flow.mjs.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

interface Config {
  baseUrl: string;
  apiKey: string;
  link: string;
  tag: string;
  /** A webhook signed by the Standard Webhooks reference package, for `verifyWebhook` in the runtime. */
  webhook: { body: string; headers: Record<string, string>; secret: string };
}

let server: ReferenceServer;
let programId: number;
let base: Omit<Config, 'tag' | 'webhook'>;

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  programId = program.id;
  const partner = await server.control.createPartner({ program_id: program.id });
  const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: 'runtimes' });
  base = { baseUrl: server.url, apiKey: program.api_token, link: link.short_link };
});
afterAll(() => server?.close());

/** Runs a command and parses the one JSON line it prints. */
function run(command: string, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: fixtures, timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(
          new Error(`${command} ${args.join(' ')} printed no report (${error?.message ?? 'exit 0'})\nstdout: ${stdout}\nstderr: ${stderr}`),
        );
      }
    });
  });
}

const entry = join(fixtures, 'runtime.mjs');

const runtimes: Record<string, (config: Config) => Promise<unknown>> = {
  node: (config) => run(process.execPath, [entry, JSON.stringify(config)]),
  bun: (config) => run(join(packageDir('bun'), 'bin', 'bun.exe'), [entry, JSON.stringify(config)]),
  deno: (config) => {
    // npm's `deno` puts the binary beside bin.cjs on postinstall; bin.cjs finds it otherwise.
    const dir = packageDir('deno');
    const [command, prefix] = existsSync(join(dir, 'deno')) ? [join(dir, 'deno'), []] : [process.execPath, [join(dir, 'bin.cjs')]];
    const { host } = new URL(config.baseUrl);
    // No permission but the network, and only to the reference server; --no-prompt turns any other access into an error.
    return run(command, [...prefix, 'run', '--no-prompt', '--no-lock', `--allow-net=${host}`, entry, JSON.stringify(config)]);
  },
  workerd: async (config) => {
    const bundle = await build({
      entryPoints: [join(fixtures, 'worker.mjs')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
    // No nodejs_compat flag: the worker gets what Cloudflare gives every worker, and nothing of Node.
    const mf = new Miniflare({ modules: true, script: bundle.outputFiles[0]!.text, compatibilityDate: '2024-09-23' });
    try {
      const response = await mf.dispatchFetch('http://worker.test/', { method: 'POST', body: JSON.stringify(config) });
      return await response.json();
    } finally {
      await mf.dispose();
    }
  },
};

/** A `sale.created` webhook signed now, as svc's outbox signs it. */
function signedWebhook(tag: string): Config['webhook'] {
  const secret = `whsec_${Buffer.from(`secret of ${tag}`).toString('base64')}`;
  const body = JSON.stringify({ type: 'sale.created', timestamp: new Date().toISOString(), data: { amount_cents: 4900 } });
  const id = `msg_${tag}`;
  const at = new Date();
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
  return { body, headers, secret };
}

describe.concurrent('the SDK flow in every runtime the README names', () => {
  it.each(Object.keys(runtimes))('%s: click → lead → sale → duplicate sale → bad key → webhook', async (name) => {
    const tag = `${name}_${Date.now()}`;
    const report = await runtimes[name]!({ ...base, tag, webhook: signedWebhook(tag) });
    expect(report).toEqual({
      runtime: name === 'workerd' ? 'workerd' : expect.stringMatching(new RegExp(`^${name} \\d+\\.\\d+`)),
      click: { success: true, clickId: 'string', requestId: 'string' },
      lead: { success: true, duplicate: false },
      sale: { success: true, duplicate: false, transactionId: `txn_${tag}`, saleId: expect.any(Number), commissionId: 'number' },
      duplicateSale: { success: true, duplicate: true, saleId: (report as { sale?: { saleId?: number } }).sale?.saleId },
      badKey: { thrown: true, unauthorized: true, svcError: true, name: 'SvcUnauthorizedError', status: 401, code: expect.any(String) },
      webhook: { type: 'sale.created', amount: 4900, forged: 'invalid_signature' },
    });
    // The service saw exactly one sale for the transaction, and none for the bad key's.
    const records = await server.control.records(programId);
    expect(records.sales.filter((s) => s.processor_event_id === `txn_${tag}`)).toHaveLength(1);
    expect(records.sales.some((s) => s.processor_event_id === `txn_${tag}_bad_key`)).toBe(false);
  });
});
