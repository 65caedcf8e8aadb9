import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { Svc } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandFailure } from '../../cli/failures';
import { loginSessionMs, waitForSignIn } from './wait-for-sign-in';

let server: ReferenceServer;
let client: Svc;
beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  // Every response this client receives is checked against spec/openapi.yaml.
  client = new Svc({ baseUrl: server.url, apiKey: '', fetch: contractFetch });
});
afterAll(async () => {
  await server?.close();
});

const callback = (state: string, idToken: string) =>
  contractFetch(`${server.url}/api/v1/cli/auth/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state, id_token: idToken }),
  });

describe('waitForSignIn (real reference server, injected sleep)', () => {
  it('polls at poll_interval_seconds until the first poll after sign-in hands out the token', async () => {
    const { account_id } = await server.control.createAccount({ email: 'poll@example.com' });
    const { data: session } = await client.cli.authStart();
    const sleeps: number[] = [];
    const login = await waitForSignIn(client, {
      state: session.state,
      pollIntervalSeconds: session.poll_interval_seconds,
      // The user signs in in the browser during the second wait.
      sleep: async (ms) => {
        sleeps.push(ms);
        if (sleeps.length === 2) await callback(session.state, (await server.control.issueIdToken(account_id)).id_token);
      },
    });
    expect(sleeps).toEqual([session.poll_interval_seconds * 1000, session.poll_interval_seconds * 1000]);
    expect(login).toMatchObject({ account_id, email: 'poll@example.com', token: expect.stringMatching(/^svc_login_/) });
  });

  it('signs in although the poll that hands out the token first answers 500 (spec/rules.md "Errors/Status codes": retry with backoff)', async () => {
    const { account_id } = await server.control.createAccount();
    const { data: session } = await client.cli.authStart();
    const login = await waitForSignIn(client, {
      state: session.state,
      pollIntervalSeconds: 1,
      // The user signs in; then the next poll fails once on the server's side.
      sleep: async () => {
        await callback(session.state, (await server.control.issueIdToken(account_id)).id_token);
        await server.control.armFault({ point: 'cli' });
      },
    });
    expect(login).toMatchObject({ account_id, token: expect.stringMatching(/^svc_login_/) });
  });

  it('gives up on its own after the 5-minute session even if the service never says expired', async () => {
    const { data: session } = await client.cli.authStart();
    let now = 0;
    const waiting = waitForSignIn(client, {
      state: session.state,
      pollIntervalSeconds: 1,
      now: () => now,
      sleep: async () => {
        now += 60_000;
      },
    });
    await expect(waiting).rejects.toBeInstanceOf(CommandFailure);
    await expect(waiting).rejects.toMatchObject({ code: 'login_expired' });
    expect(now).toBeGreaterThan(loginSessionMs);
  });

  it('passes other errors through (404 Session not found)', async () => {
    await expect(
      waitForSignIn(client, { state: 'no-such-state', pollIntervalSeconds: 1, sleep: async () => undefined }),
    ).rejects.toMatchObject({
      status: 404,
      message: 'Session not found',
    });
  });
});
