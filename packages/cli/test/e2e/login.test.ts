import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePerFile } from './fixture';
import { startCli } from './run-cli';

const t = fixturePerFile();

const statePattern = /http:\/\/\S+\/auth\/sign-in\?state=\S+/;
const stateOf = (url: string) => new URL(url).searchParams.get('state') ?? '';
/** Polls the CLI has sent so far. Acting right after a new one lands within the 2 s poll interval. */
const pollsSeen = () => t.f.proxy.seen.filter((line) => line.startsWith('GET /api/v1/cli/auth/poll')).length;
const afterPoll = (count: number) => expect.poll(pollsSeen, { timeout: 5_000, interval: 20 }).toBeGreaterThan(count);

describe('svc login (spawned binary, reference server)', () => {
  it('signs in through the browser callback and stores the token with mode 0600', async () => {
    const env = await t.f.newUser();
    const { run, accountId } = await t.f.signIn(env, { email: 'ada@example.com' });
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({
      ok: true,
      status: 'signed_in',
      email: 'ada@example.com',
      account_id: accountId,
      base_url: env.SVC_BASE_URL,
      config_path: join(env.SVC_CONFIG_DIR, 'config.json'),
    });
    expect(run.json).not.toHaveProperty('token');
    expect(run.stderr).toContain('Open this URL in a browser to sign in:');
    expect(run.stderr).toMatch(
      /Your code: [BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}\. Press Authorize in the browser only if it shows the same code\./,
    );

    const path = join(env.SVC_CONFIG_DIR, 'config.json');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(env.SVC_CONFIG_DIR)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(path, 'utf8')).logins[env.SVC_BASE_URL];
    expect(stored).toMatchObject({ account_id: accountId, email: 'ada@example.com', token: expect.stringMatching(/^svc_login_/) });

    // The stored token is the one the account routes accept.
    const listed = await t.f.svc(['programs', '--json'], env);
    expect(listed.code).toBe(0);
    expect(listed.json).toEqual({ ok: true, programs: [] });
    expect(t.f.proxy.seen).toEqual(expect.arrayContaining(['POST /api/v1/cli/auth/start 200', 'GET /api/v1/cli/auth/poll 200']));
  });

  it('completes the login when a poll answers 500: the SDK retries it and the token is still handed out', async () => {
    const env = await t.f.newUser();
    const { account_id } = await t.f.server.control.createAccount({ email: 'retry@example.com' });
    const before = pollsSeen();
    const login = startCli(['login', '--no-browser', '--json'], env);
    const [url] = await login.waitForStderr(statePattern);
    // Right after a poll, so sign-in and the armed fault both land within the 2 s poll interval: the next poll
    // (the first after sign-in, the one that hands out the token) answers 500 `Failed to poll auth session`.
    await afterPoll(before);
    expect((await t.f.callback(stateOf(url), (await t.f.server.control.issueIdToken(account_id)).id_token)).status).toBe(200);
    await t.f.server.control.armFault({ point: 'cli' });
    const run = await login.done;
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ ok: true, status: 'signed_in', email: 'retry@example.com', account_id });
    expect(t.f.proxy.seen.slice(-2)).toEqual(['GET /api/v1/cli/auth/poll 500', 'GET /api/v1/cli/auth/poll 200']);
    const stored = JSON.parse(await readFile(join(env.SVC_CONFIG_DIR, 'config.json'), 'utf8')).logins[env.SVC_BASE_URL];
    expect(stored).toMatchObject({ account_id, token: expect.stringMatching(/^svc_login_/) });
  });

  it('prints human output with the next steps and no colour when not on a terminal', async () => {
    const env = await t.f.newUser();
    const { account_id } = await t.f.server.control.createAccount({ email: 'grace@example.com' });
    const login = startCli(['login'], env);
    const [url] = await login.waitForStderr(statePattern);
    expect((await t.f.callback(stateOf(url), (await t.f.server.control.issueIdToken(account_id)).id_token)).status).toBe(200);
    const run = await login.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Signed in to ${env.SVC_BASE_URL} as grace@example.com.`);
    expect(run.stdout).toContain('svc init');
    expect(run.stderr).toContain('Waiting for you to sign in');
    expect(run.stdout + run.stderr).not.toContain('\u001b[');
  });

  it('reports an expired session (5 minutes on the server clock) and stores nothing', async () => {
    const env = await t.f.newUser();
    const login = startCli(['login', '--no-browser', '--json'], env);
    await login.waitForStderr(statePattern);
    await t.f.server.control.clock({ advance_seconds: 301 });
    const run = await login.done;
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ code: 'login_expired', hint: 'Run svc login again for a new link.' });
    expect(run.stderr).toContain('The sign-in link expired before you signed in');
    await expect(stat(join(env.SVC_CONFIG_DIR, 'config.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a session whose token was already handed out (Session already consumed)', async () => {
    const env = await t.f.newUser();
    const { account_id } = await t.f.server.control.createAccount();
    const before = pollsSeen();
    const login = startCli(['login', '--no-browser'], env);
    const [url] = await login.waitForStderr(statePattern);
    const state = stateOf(url);
    // After the CLI's first (pending) poll: a slow CLI start could otherwise poll after the sign-in and take the token.
    await afterPoll(before);
    expect((await t.f.callback(state, (await t.f.server.control.issueIdToken(account_id)).id_token)).status).toBe(200);
    // Someone else polls first (the CLI polls every poll_interval_seconds = 2 s) and takes the token.
    const { contractFetch } = await import('@svc/reference-server/testing');
    const poll = await contractFetch(`${t.f.server.url}/api/v1/cli/auth/poll?state=${encodeURIComponent(state)}`);
    expect(((await poll.json()) as { data: { status: string } }).data.status).toBe('complete');
    const run = await login.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Session already consumed');
    expect(run.stderr).toContain('code:       session_consumed');
    expect(run.stderr).toMatch(/request id: \S+/);
    expect(t.f.proxy.seen).toContain('GET /api/v1/cli/auth/poll 400');
  });

  it('a suspended account cannot complete the login (403 ACCOUNT_BLOCKED); the CLI gets no token', async () => {
    const env = await t.f.newUser();
    const { account_id } = await t.f.server.control.createAccount({ blocked: true });
    const login = startCli(['login', '--no-browser', '--json'], env);
    const [url] = await login.waitForStderr(statePattern);
    const refused = await t.f.callback(stateOf(url), (await t.f.server.control.issueIdToken(account_id)).id_token);
    expect(refused).toEqual({
      status: 403,
      body: {
        data: null,
        error: { status: 403, name: 'ForbiddenError', message: 'Your account has been suspended.', details: { code: 'ACCOUNT_BLOCKED' } },
      },
    });
    // The poll route has no "blocked" state (see README): the session stays pending until it expires.
    await t.f.server.control.clock({ advance_seconds: 301 });
    const run = await login.done;
    expect(run.code).toBe(1);
    expect(run.json.error.code).toBe('login_expired');
    await expect(stat(join(env.SVC_CONFIG_DIR, 'config.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('shows ACCOUNT_BLOCKED with its request id once a signed-in account is suspended', async () => {
    const env = await t.f.newUser();
    const { accountId } = await t.f.signIn(env);
    await t.f.server.store.db.updateTable('accounts').set({ blocked: 1 }).where('id', '=', accountId).execute();
    for (const args of [
      ['programs'],
      ['init', '--name', 'A', '--domain', 'a.com', '--commission-type', 'percent', '--commission-rate', '10'],
    ]) {
      const run = await t.f.svc(args, env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('Error: Your account has been suspended.');
      expect(run.stderr).toContain('status:     403');
      expect(run.stderr).toContain('code:       ACCOUNT_BLOCKED');
      expect(run.stderr).toMatch(/request id: [0-9a-f-]{36}/);
      expect(run.stderr).toContain('signing in again will not help');
    }
  });
});
