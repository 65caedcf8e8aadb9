import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli';
import { runInTerminal } from './terminal';

// A hostile server at the base URL the user chose: it answers in the spec's shapes, but its texts carry terminal
// escape sequences and its sign-in URL points at a local file. svc must print none of the escapes and open nothing
// but a page of the base URL's origin.
const esc = '\u001b';
const hostile = `${esc}]0;pwned${String.fromCharCode(7)}${esc}[2J${esc}[1;1H${String.fromCharCode(0x9b)}31m`;
let signInUrl = '';

function answer(path: string, baseUrl: string): { status: number; body: unknown } {
  if (path === '/api/v1/cli/auth/start') {
    const url = signInUrl || `${baseUrl}/auth/sign-in?state=s`;
    return {
      status: 200,
      body: {
        data: { state: 's', user_code: 'WDJB-MJHT', sign_in_url: url, expires_at: '2030-01-01T00:00:00Z', poll_interval_seconds: 1 },
      },
    };
  }
  if (path.startsWith('/api/v1/cli/auth/poll')) {
    return {
      status: 200,
      body: {
        data: {
          status: 'complete',
          token: 'svc_login_hostile',
          token_expires_at: '2030-01-01T00:00:00Z',
          account_id: 1,
          email: `mallory${hostile}@evil.example`,
        },
      },
    };
  }
  if (path === '/api/v1/cli/programs') {
    const program = {
      id: 1,
      name: `Shop${hostile}`,
      domain: `shop.example${hostile}`,
      commission_type: 'percentage',
      commission_rate: 10,
      attribution_window_days: 30,
      lead_auth: 'browser',
      allowed_origins: null,
      api_token: `svc_live_…abcd${hostile}`,
      advertiser_id: 1,
      created_at: '2026-01-01T00:00:00Z',
      role: 'owner',
    };
    return { status: 200, body: { data: { programs: [program] } } };
  }
  if (path === '/api/v1/partners') {
    const figures = {
      clicks: 0,
      leads: 0,
      sales: 0,
      revenue_cents: {},
      commissions: { due_cents: {}, held_cents: {}, paid_cents: {}, reversed_cents: {}, balance_cents: {} },
    };
    const partner = {
      id: 1,
      name: `Eve${hostile}`,
      email: `eve${hostile}@evil.example`,
      status: 'active',
      invitation: 'accepted',
      commission_type: null,
      commission_rate: null,
      created_at: '2026-01-01T00:00:00.000Z',
      terms: { commission_type: 'percent', commission_rate: 20, source: 'program' },
      figures,
    };
    return {
      status: 200,
      body: { data: { partners: [partner] } },
    };
  }
  if (path.startsWith('/api/v1/links?') || path === '/api/v1/links') {
    const link = {
      id: 1,
      partner_id: 1,
      short_link: `eve${hostile}`,
      url: `https://shop.example/?aff=eve${hostile}`,
      enabled: true,
      created_at: '2026-01-01T00:00:00Z',
    };
    return { status: 200, body: { data: { links: [link] } } };
  }
  return {
    status: 400,
    body: { data: null, error: { status: 400, name: 'BadRequestError', message: `Bad${hostile} request`, details: { why: hostile } } },
  };
}

let server: Server;
let baseUrl: string;
let dir: string;
let opened: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = createServer((req, res) => {
    const { status, body } = answer(req.url ?? '/', baseUrl);
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_hostile' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
  dir = await mkdtemp(join(tmpdir(), 'svc-cli-hostile-'));
  // A stand-in for the desktop's opener: it writes down what it was asked to open.
  opened = join(dir, 'opened.txt');
  await writeFile(join(dir, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
  await chmod(join(dir, 'xdg-open'), 0o755);
  env = { HOME: dir, SVC_CONFIG_DIR: join(dir, 'config'), SVC_BASE_URL: baseUrl, DISPLAY: ':0', PATH: `${dir}:${process.env.PATH ?? ''}` };
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const openedUrls = () =>
  readFile(opened, 'utf8').then(
    (text) => text.split('\n').filter(Boolean),
    () => [] as string[],
  );
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('svc against a hostile server', () => {
  it('does not open a sign-in URL off the base URL origin: prints it and says why', async () => {
    signInUrl = 'file:///etc/passwd';
    const run = await runInTerminal(['login'], env).done;
    expect(run.code).toBe(0);
    expect(run.text).toContain('Not opening the sign-in URL in your browser: it is not an http(s) URL.');
    expect(run.text).toContain('file:///etc/passwd');
    expect(await openedUrls()).toEqual([]);

    signInUrl = 'https://evil.example/auth/sign-in';
    const elsewhere = await runInTerminal(['login'], env).done;
    expect(elsewhere.text).toContain(`Not opening the sign-in URL in your browser: it is not on ${baseUrl}.`);
    expect(await openedUrls()).toEqual([]);
  });

  it('opens a sign-in URL on the base URL origin (the opener is really reached)', async () => {
    signInUrl = '';
    const run = await runInTerminal(['login'], env).done;
    expect(run.code).toBe(0);
    expect(run.text).toContain('Opened your browser to sign in.');
    await expect.poll(openedUrls).toEqual([`${baseUrl}/auth/sign-in?state=s`]);
  });

  it.each([
    ['login', ['login', '--no-browser'], 'mallory@evil.example'],
    ['programs', ['programs'], 'Shop'],
    ['partners list', ['partners', 'list', '--api-key', 'svc_live_x'], 'eve@evil.example'],
    ['links list', ['links', 'list', '--api-key', 'svc_live_x'], 'https://shop.example/?aff=eve'],
    ['an error', ['links', 'disable', 'abc', '--api-key', 'svc_live_x'], 'Error: Bad request'],
  ])('prints no control character or escape sequence from the server: %s', async (_case, args, expected) => {
    const run = await runCli(args, env);
    const printed = run.stdout + run.stderr;
    expect(printed).toContain(expected);
    expect(printed).not.toMatch(controlCharacters);
    expect(printed).not.toContain('pwned');
  });
});
