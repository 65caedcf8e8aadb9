import { describe, expect, it } from 'vitest';
import type { Io } from '../output/output';
import { main } from './main';

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const written = { stdout: '', stderr: '' };
  const io: Io = {
    stdout: { isTTY: false, write: (chunk: string) => (written.stdout += chunk) },
    stderr: { isTTY: false, write: (chunk: string) => (written.stderr += chunk) },
    stdin: { isTTY: false },
    // Nothing listens on port 9: a request that slipped through would fail with exit 1, not 2.
    env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CONFIG_DIR: '/nonexistent/svc', ...env },
  };
  const code = await main(args, io, '1.2.3');
  return { code, ...written };
}

describe('svc usage errors exit 2 and send nothing', () => {
  it.each([
    [['frobnicate'], 'Unknown command "frobnicate".'],
    [['init', '--bogus'], 'Unknown option `--bogus`'],
    [['init', '--name'], 'value is missing'],
    [['init', '--name', 'A', '--domain', 'a.com'], 'Missing required values: --commission-type, --commission-rate'],
    [['init', '--name', 'A', '--domain', 'a.com', '--commission-type', 'bonus', '--commission-rate', '5'], 'Invalid commission_type: bonus'],
    [['init', '--name', 'A', '--domain', 'a.com', '--commission-type', 'fixed', '--commission-rate', 'ten'], 'commission_rate must be a positive number'],
    [['test'], 'missing required args'],
    [['test', 'refund', '--api-key', 'k'], 'Unknown test event "refund"'],
    [['status'], 'A program key is required'],
    [['test', 'click'], 'A program key is required'],
    [['programs', '--base-url', 'not a url'], '--base-url must be an absolute http(s) URL'],
  ])('svc %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('--help for usage');
    expect(result.stdout).toBe('');
  });

  it('prints one JSON error document with --json', async () => {
    const result = await run(['status', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: { message: expect.stringContaining('A program key is required'), status: null, code: 'usage', request_id: null },
    });
  });

  it('prints the help without a command (exit 2) and with --help (exit 0)', async () => {
    const bare = await run([]);
    expect(bare.code).toBe(2);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    const testHelp = await run(['test', '--help']);
    expect(testHelp.code).toBe(0);
  });

  it('takes the key from SVC_API_KEY, so only the unreachable service fails (exit 1)', async () => {
    const result = await run(['status', '--json'], { SVC_API_KEY: 'svc_live_x' });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.hint).toContain('Could not reach http://127.0.0.1:9');
  });
});
