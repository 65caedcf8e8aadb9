import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer, type StartOptions } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';
import { signInOverHttp } from './http-sign-in';
import { startIssuer, type TestIssuer } from './issuer';

// Who may create workspaces and programs (SVC_WORKSPACE_CREATORS) on production-shaped servers: OpenID Connect
// through a real OpenID Provider (oidc-provider), no test control. Every answer is checked against the spec.
const users = {
  owner: { email: 'owner@shop.example', email_verified: true },
  stranger: { email: 'stranger@elsewhere.example', email_verified: true },
  listed: { email: 'listed@solo.example', email_verified: true },
  colleague: { email: 'colleague@corp.example', email_verified: true },
};
const forbidden = 'This account may not create programs on this server. Ask a workspace owner for an invitation to their workspace.';
const program = { name: 'Shop', domain: 'shop.example', commission_type: 'percent', commission_rate: 20 };

interface Running {
  issuer: TestIssuer;
  server: ReferenceServer;
}
const running: Running[] = [];

async function start(options: Partial<StartOptions> = {}): Promise<ReferenceServer> {
  const issuer = await startIssuer(users);
  const server = await startReferenceServer({
    oidc: { issuer: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret },
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    ...options,
  });
  issuer.serve(`${server.url}/auth/callback`);
  running.push({ issuer, server });
  return server;
}

afterAll(async () => {
  for (const { server, issuer } of running) {
    await server.close();
    await issuer.close();
  }
});

function client(server: ReferenceServer) {
  return async (method: string, path: string, cookie: string, json?: unknown) => {
    const headers: Record<string, string> = { cookie };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await contractFetch(`${server.url}${path}`, {
      method,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    return { status: response.status, body: await response.json() };
  };
}

// The New program form has its own page (/dashboard/new); /dashboard opens a program once the account has one.
const dashboardHtml = async (server: ReferenceServer, cookie: string, path = '/dashboard') =>
  (await fetch(`${server.url}${path}`, { headers: { cookie } })).text();

describe('SVC_WORKSPACE_CREATORS unset: only the first account to sign in creates', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await start();
  });

  it('lets the bootstrap owner create; anyone signing in later gets 403, no workspace, no New program, and sees only invitations', async () => {
    const call = client(server);
    const owner = await signInOverHttp(server.url, 'owner');
    expect((await call('GET', '/api/dashboard/session', owner)).body.data.can_create_programs).toBe(true);
    const created = await call('POST', '/api/dashboard/programs', owner, program);
    expect(created.status).toBe(201);
    expect(await dashboardHtml(server, owner, '/dashboard/new')).toContain('id="new-program-form"');

    const stranger = await signInOverHttp(server.url, 'stranger');
    const session = await call('GET', '/api/dashboard/session', stranger);
    expect(session.body.data).toMatchObject({ email: 'stranger@elsewhere.example', can_create_programs: false });
    const refused = await call('POST', '/api/dashboard/programs', stranger, { ...program, name: "The merchant's own name" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ status: 403, name: 'ForbiddenError', message: forbidden, details: {} });
    // Nothing was created: no program, and the stranger's sign-in made no workspace either.
    const db = server.store.db;
    expect(await db.selectFrom('programs').select('name').execute()).toEqual([{ name: 'Shop' }]);
    const strangerRow = await db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'stranger@elsewhere.example')
      .executeTakeFirstOrThrow();
    expect(await db.selectFrom('advertisers').select('id').where('account_id', '=', strangerRow.id).execute()).toEqual([]);
    expect((await call('GET', '/api/dashboard/programs', stranger)).body.data.programs).toEqual([]);
    // The dashboard offers no New program and says what to do instead.
    const html = await dashboardHtml(server, stranger);
    expect(html).not.toContain('id="new-program-form"');
    expect(html).toContain(
      'This account cannot create programs on this server. To work on a program, ask one of its workspace owners to invite you.',
    );

    // Invited as a partner, the stranger sees the invitation (and only that) in the partner view.
    const base = `/api/dashboard/programs/${created.body.data.program.id}`;
    const partner = await call('POST', `${base}/partners`, owner, { name: 'Stranger', email: 'stranger@elsewhere.example' });
    const view = await call('GET', '/api/partner', stranger);
    expect(view.body.data).toEqual({
      partners: [],
      invitations: [{ partner_id: partner.body.data.id, program_name: 'Shop', invited_by: 'owner@shop.example' }],
    });
  });
});

describe('SVC_WORKSPACE_CREATORS lists emails and @domains', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await start({ workspaceCreators: { emails: ['listed@solo.example'], domains: ['@corp.example'] } });
  });

  it('lets a listed email and an email of a listed domain create, and refuses everyone else, even the first to sign in', async () => {
    const call = client(server);
    const first = await signInOverHttp(server.url, 'owner');
    expect((await call('POST', '/api/dashboard/programs', first, program)).status).toBe(403);
    for (const login of ['listed', 'colleague'] as const) {
      const cookie = await signInOverHttp(server.url, login);
      expect((await call('GET', '/api/dashboard/session', cookie)).body.data.can_create_programs, login).toBe(true);
      const created = await call('POST', '/api/dashboard/programs', cookie, { ...program, name: `Shop of ${login}` });
      expect(created.status, login).toBe(201);
    }
  });
});
