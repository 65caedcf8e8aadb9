import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { runCli, startCli, type CliRun } from './run-cli';
import { startValidatingProxy, type ValidatingProxy } from './validating-proxy';

/** The environment of one user of the CLI: their own config directory and home, and the service address. */
export interface UserEnv extends Record<string, string> {
  SVC_CONFIG_DIR: string;
  HOME: string;
  SVC_BASE_URL: string;
}

export interface Fixture {
  server: ReferenceServer;
  proxy: ValidatingProxy;
  /** A fresh config directory (a fresh "user") for one test. */
  newUser(): Promise<UserEnv>;
  /** `svc …` against the server through the validating proxy. */
  svc(args: string[], env: Record<string, string>): Promise<CliRun>;
  /** Full `svc login --no-browser --json`, completed through the callback with a test-control id_token. */
  signIn(env: Record<string, string>, account?: { email?: string }): Promise<{ run: CliRun; accountId: number }>;
  /** `POST /api/v1/cli/auth/callback` as the sign-in page would send it, validated against the spec. */
  callback(state: string, idToken: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The reference server (test control on) with the validating proxy in front, as the CLI's `--base-url`. */
export async function startFixture(): Promise<Fixture> {
  const server = await startReferenceServer({ testControl: true, databaseUrl: process.env.DATABASE_URL ?? 'sqlite::memory:' });
  const proxy = await startValidatingProxy(server.url);
  const dirs: string[] = [];

  const callback = async (state: string, idToken: string) => {
    const response = await contractFetch(`${server.url}/api/v1/cli/auth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state, id_token: idToken }),
    });
    return { status: response.status, body: await response.json() };
  };

  return {
    server,
    proxy,
    async newUser(): Promise<UserEnv> {
      const dir = await mkdtemp(join(tmpdir(), 'svc-cli-e2e-'));
      dirs.push(dir);
      return { SVC_CONFIG_DIR: join(dir, 'config'), HOME: dir, SVC_BASE_URL: proxy.url };
    },
    svc: (args, env) => runCli(args, env),
    callback,
    async signIn(env, account = {}) {
      const { account_id: accountId } = await server.control.createAccount(account);
      const login = startCli(['login', '--no-browser', '--json'], env);
      const [url] = await login.waitForStderr(/http:\/\/\S+\/auth\/sign-in\?state=\S+/);
      const state = new URL(url).searchParams.get('state') ?? '';
      const { id_token } = await server.control.issueIdToken(accountId);
      expect((await callback(state, id_token)).status).toBe(200);
      return { run: await login.done, accountId };
    },
    async close() {
      await proxy.close();
      await server.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** The per-file set-up of the end-to-end tests: one fixture, and no contract violation seen by its proxy after any test. */
export function fixturePerFile(): { readonly f: Fixture } {
  const holder = {} as { f: Fixture };
  beforeAll(async () => {
    holder.f = await startFixture();
  });
  afterEach(() => {
    expect(holder.f.proxy.violations).toEqual([]);
  });
  afterAll(async () => {
    await holder.f?.close();
  });
  return holder;
}
