import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { catalogue } from '@svc/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc, SvcBadRequestError, SvcNotFoundError } from '../../src';

// Against the real reference server; every response the SDK sees is validated against spec/openapi.yaml.
let server: ReferenceServer;
let svc: Svc;
beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  svc = new Svc({ baseUrl: server.url, apiKey: 'svc_live_unused', fetch: contractFetch, onWarning: () => {} });
});
afterAll(() => server.close());

describe('CLI login through the SDK', () => {
  it('start → sign-in → poll hands the login token out once', async () => {
    const start = await svc.cli.authStart();
    const { state } = start.data;
    expect(start.requestId).toMatch(/\S/);
    expect(start.rateLimit?.limit).toBeGreaterThan(0);
    expect((await svc.cli.authPoll(state)).data.status).toBe('pending');

    const { account_id } = await server.control.createAccount();
    const { id_token } = await server.control.issueIdToken(account_id);
    // The callback is the browser sign-in page's call, not an SDK method.
    const callback = await contractFetch(`${server.url}/api/v1/cli/auth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state, id_token }),
    });
    expect(callback.status).toBe(200);

    const complete = await svc.cli.authPoll(state);
    expect(complete.data).toMatchObject({ status: 'complete', account_id });
    expect(complete.data.token).toEqual(expect.any(String));

    const consumed = await svc.cli.authPoll(state).catch((error: unknown) => error);
    expect(consumed).toBeInstanceOf(SvcBadRequestError);
    expect(consumed).toMatchObject({ status: 400, message: catalogue.pollSessionConsumed.message, envelope: 'platform' });
  });

  it('an unknown session is SvcNotFoundError', async () => {
    const error = await svc.cli.authPoll('no-such-state').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcNotFoundError);
    expect(error).toMatchObject({ message: catalogue.pollSessionNotFound.message });
  });
});
