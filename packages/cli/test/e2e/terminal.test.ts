import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePerFile, type UserEnv } from './fixture';
import { runInTerminal } from './terminal';

const t = fixturePerFile();
let env: UserEnv;
beforeAll(async () => {
  env = await t.f.newUser();
  expect((await t.f.signIn(env)).run.code).toBe(0);
});

async function terminalState(terminal: ReturnType<typeof runInTerminal>): Promise<string | undefined> {
  await terminal.waitFor('The link expires at');
  return terminal.screen().match(/sign-in\?state=([\w-]+)/)?.[1];
}

describe('svc in a terminal (pseudo-terminal)', () => {
  it('svc init asks for what the flags leave out, then creates the program', async () => {
    const terminal = runInTerminal(['init', '--name', 'Prompted'], env);
    await terminal.waitFor('Your site domain');
    terminal.type('prompted.example\r');
    await terminal.waitFor('Commission type');
    terminal.type('\u001b[B\r'); // ↓ to "fixed"
    await terminal.waitFor('Commission rate');
    terminal.type('abc\r');
    await terminal.waitFor('Enter a positive number');
    terminal.type('\u0008\u0008\u0008500\r');
    const run = await terminal.done;
    expect(run.code).toBe(0);
    expect(run.text).not.toContain('Program name');
    expect(run.text).toMatch(/Created program Prompted \(id \d+\) for prompted\.example\./);
    expect(run.raw).toContain('\u001b[32m✔\u001b[39m');

    const listed = await t.f.svc(['programs', '--json'], env);
    expect(listed.json.programs).toContainEqual(
      expect.objectContaining({ name: 'Prompted', domain: 'prompted.example', commission_type: 'fixed', commission_rate: 500 }),
    );
  });

  it('svc login without a graphical session prints the URL and waits with a spinner', async () => {
    const user = await t.f.newUser();
    const { account_id } = await t.f.server.control.createAccount({ email: 'tty@example.com' });
    const terminal = runInTerminal(['login'], user);
    await terminal.waitFor('Open this URL in a browser to sign in:');
    await terminal.waitFor('Waiting for you to sign in');
    await terminal.waitFor('sign-in?state=');
    const state = (await terminalState(terminal)) ?? '';
    expect((await t.f.callback(state, (await t.f.server.control.issueIdToken(account_id)).id_token)).status).toBe(200);
    const run = await terminal.done;
    expect(run.code).toBe(0);
    expect(run.text).toContain('Signed in to');
    expect(run.text).toContain('tty@example.com');
  });

  it('Ctrl+C ends a waiting svc login (exit 130) and stores nothing', async () => {
    const user = await t.f.newUser();
    const terminal = runInTerminal(['login'], user);
    await terminal.waitFor('Waiting for you to sign in');
    terminal.type('\u0003');
    const run = await terminal.done;
    expect(run.code).toBe(130);
    expect(run.text).toContain('Login cancelled: nothing was stored.');
    await expect(stat(join(user.SVC_CONFIG_DIR, 'config.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('does not prompt with --json, even on a terminal (exit 2)', async () => {
    const run = await runInTerminal(['init', '--json'], env).done;
    expect(run.code).toBe(2);
    expect(run.text).toContain('"code": "usage"');
    expect(run.text).not.toContain('Program name');
  });

  it('colours a terminal, but not with NO_COLOR', async () => {
    const { api_token } = await t.f.server.control.createProgram({});
    const coloured = await runInTerminal(['status', '--api-key', api_token], env).done;
    expect(coloured.code).toBe(0);
    expect(coloured.raw).toContain('\u001b[1m');
    const plain = await runInTerminal(['status', '--api-key', api_token], { ...env, NO_COLOR: '1' }).done;
    expect(plain.code).toBe(0);
    expect(plain.raw).not.toContain('\u001b[');
    expect(plain.text).toContain('Real events seen');
  });
});
