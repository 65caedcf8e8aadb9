import { describe, expect, it, vi } from 'vitest';
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
    [['stauts'], 'Unknown command "stauts". Did you mean "status"?'],
    [['init', '--bogus'], 'Unknown option `--bogus`'],
    [['status', '--api-kye', 'k'], 'Unknown option `--api-kye`. Did you mean "--api-key"?'],
    [['test', 'clik', '--api-key', 'k'], 'Unknown test event "clik". Did you mean "click"? Use one of: click, lead, sale, chain.'],
    [['links', 'disabel', '--api-key', 'k'], 'Unknown links action "disabel". Did you mean "disable"?'],
    [['partners', 'ad', '--api-key', 'k'], 'Unknown partners action "ad". Did you mean "add"?'],
    [['init', '--name'], 'value is missing'],
    [['init', '--name', 'A', '--domain', 'a.com'], 'Missing required values: --commission-type, --commission-rate'],
    [
      ['init', '--name', 'A', '--domain', 'a.com', '--commission-type', 'bonus', '--commission-rate', '5'],
      'Invalid commission_type: bonus',
    ],
    [
      ['init', '--name', 'A', '--domain', 'a.com', '--commission-type', 'fixed', '--commission-rate', 'ten'],
      'commission_rate must be a positive number',
    ],
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

  it('names no suggestion for a word close to no command', async () => {
    const result = await run(['frobnicate']);
    expect(result.stderr).not.toContain('Did you mean');
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

describe('svc <command> --help (cac prints it with console.info)', () => {
  const help = async (args: string[]) => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'info').mockImplementation((text: string) => void lines.push(text));
    try {
      expect((await run(args)).code).toBe(0);
    } finally {
      log.mockRestore();
    }
    return lines.join('\n');
  };

  it('svc test --help lists the events, with the command description', async () => {
    const text = await help(['test', '--help']);
    expect(text).toContain('$ svc test <click|lead|sale|chain>');
    expect(text).toContain('Send a test-mode click, lead or sale, or the synthetic chain');
    expect(text).toMatch(/Events:\n {2}click .+\n {2}lead .+last svc test click.+\n {2}sale .+last svc test lead.+\n {2}chain /);
  });

  it('svc login --help does not call --no-browser "default: true"', async () => {
    const text = await help(['login', '--help']);
    expect(text).toMatch(/--no-browser +Print the sign-in URL instead of opening a browser/);
    expect(text).not.toContain('(default: true)');
  });

  it('svc --help lists each command with the values its argument takes', async () => {
    const text = await help(['--help']);
    expect(text).toContain('test <click|lead|sale|chain>');
    expect(text).toContain('partners <add|list>');
    expect(text).toContain('links <create|list|disable> [short_link]');
  });
});
