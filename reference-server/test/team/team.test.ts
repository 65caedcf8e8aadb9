import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';
import { signInOverHttp } from '../oidc/http-sign-in';
import { startIssuer, type TestIssuer } from '../oidc/issuer';

// The team (spec `dashboardTeam` and the routes beside it) on a production-shaped server: sign-in through a real
// OpenID Provider (oidc-provider), no test control. Every answer is checked against the spec.
const users = {
  owner: { email: 'owner@shop.example', email_verified: true },
  ana: { email: 'ana@shop.example', email_verified: true },
  ben: { email: 'ben@shop.example', email_verified: true },
  eve: { email: 'eve@elsewhere.example', email_verified: true },
};

let issuer: TestIssuer;
let server: ReferenceServer;
let owner: string;
let base: string;
let secondProgram: number;

async function call(method: string, path: string, cookie: string, json?: unknown) {
  const headers: Record<string, string> = { cookie };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const response = await contractFetch(`${server.url}${path}`, {
    method,
    headers,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}

const team = async (cookie = owner) => (await call('GET', `${base}/team`, cookie)).body.data;
const audit = async (programPath = base) =>
  (await call('GET', `${programPath}/audit-log`, owner)).body.data.entries.filter((e: { action: string }) => e.action.startsWith('team.'));

beforeAll(async () => {
  issuer = await startIssuer(users);
  server = await startReferenceServer({
    oidc: { issuer: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret },
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  issuer.serve(`${server.url}/auth/callback`);
  owner = await signInOverHttp(server.url, 'owner');
  const program = { name: 'Shop', domain: 'shop.example', commission_type: 'percent', commission_rate: 20 };
  base = `/api/dashboard/programs/${(await call('POST', '/api/dashboard/programs', owner, program)).body.data.program.id}`;
  secondProgram = (await call('POST', '/api/dashboard/programs', owner, { ...program, name: 'Shop 2' })).body.data.program.id;
});
afterAll(async () => {
  await server.close();
  await issuer.close();
});

describe('the team', () => {
  it('an invitation stays pending until that email signs in, then it is a member of every program of the workspace', async () => {
    const before = await team();
    expect(before.members).toEqual([
      { account_id: expect.any(Number), email: 'owner@shop.example', role: 'owner', joined_at: expect.any(String) },
    ]);

    const invited = await call('POST', `${base}/team/invitations`, owner, { email: ' Ana@Shop.example ' });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toEqual({
      id: expect.any(Number),
      email: 'ana@shop.example',
      role: 'member',
      invited_at: expect.any(String),
    });
    expect((await team()).invitations).toEqual([invited.body.data]);
    const again = await call('POST', `${base}/team/invitations`, owner, { email: 'ana@shop.example', role: 'owner' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This email is already invited');

    const ana = await signInOverHttp(server.url, 'ana');
    const after = await team(ana);
    expect(after.invitations).toEqual([]);
    expect(after.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['owner@shop.example', 'owner'],
      ['ana@shop.example', 'member'],
    ]);
    expect((await call('GET', `/api/dashboard/programs/${secondProgram}/team`, ana)).status).toBe(200);
    const member = await call('POST', `${base}/team/invitations`, owner, { email: 'ana@shop.example' });
    expect(member.status).toBe(409);
    expect(member.body.error.message).toBe('This email already belongs to a member of the team');

    // Recorded in each program's log: the invitation by the owner, the joining by ana herself.
    for (const path of [base, `/api/dashboard/programs/${secondProgram}`]) {
      expect((await audit(path)).map((e: { action: string; actor: string }) => [e.action, e.actor])).toEqual([
        ['team.joined', 'ana@shop.example'],
        ['team.invited', 'owner@shop.example'],
      ]);
    }
  });

  it('members view but cannot change the team; owners change roles and remove, never the last owner', async () => {
    const ana = await signInOverHttp(server.url, 'ana');
    const anaId = (await team()).members.find((m: { email: string }) => m.email === 'ana@shop.example').account_id;
    const ownerId = (await team()).members.find((m: { email: string }) => m.email === 'owner@shop.example').account_id;
    for (const [method, path, json] of [
      ['POST', '/team/invitations', { email: 'eve@elsewhere.example' }],
      ['PATCH', `/team/members/${anaId}`, { role: 'owner' }],
      ['DELETE', `/team/members/${ownerId}`, undefined],
    ] as const) {
      const res = await call(method, `${base}${path}`, ana, json);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.message).toBe('Only a workspace owner can change the team');
    }

    const lastOwner = await call('PATCH', `${base}/team/members/${ownerId}`, owner, { role: 'member' });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error.message).toBe('The team must keep at least one owner');
    expect((await call('DELETE', `${base}/team/members/${ownerId}`, owner)).status).toBe(409);

    const promoted = await call('PATCH', `${base}/team/members/${anaId}`, owner, { role: 'owner' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ account_id: anaId, role: 'owner' });
    // Two owners now: the first may step down to member, and ana may remove them.
    expect((await call('PATCH', `${base}/team/members/${ownerId}`, owner, { role: 'member' })).status).toBe(200);
    expect((await call('DELETE', `${base}/team/members/${ownerId}`, ana)).status).toBe(204);
    // Removed: no access to any program of the workspace.
    expect((await call('GET', `${base}/team`, owner)).status).toBe(403);
    expect((await call('DELETE', `${base}/team/members/${anaId}`, ana)).body.error.message).toBe('The team must keep at least one owner');

    // ana brings the first owner back by invitation, as an owner.
    expect((await call('POST', `${base}/team/invitations`, ana, { email: 'owner@shop.example', role: 'owner' })).status).toBe(201);
    owner = await signInOverHttp(server.url, 'owner');
    expect((await team()).members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['owner@shop.example', 'owner'],
      ['ana@shop.example', 'owner'],
    ]);
    expect((await audit()).slice(0, 6).map((e: { action: string; details: unknown }) => [e.action, e.details])).toEqual([
      ['team.joined', { email: 'owner@shop.example', role: 'owner' }],
      ['team.invited', { email: 'owner@shop.example', role: 'owner' }],
      ['team.removed', { email: 'owner@shop.example', role: 'member' }],
      ['team.role_changed', { email: 'owner@shop.example', role: { from: 'owner', to: 'member' } }],
      ['team.role_changed', { email: 'ana@shop.example', role: { from: 'member', to: 'owner' } }],
      ['team.joined', { email: 'ana@shop.example', role: 'member' }],
    ]);
  });

  it('withdraws an invitation, and refuses bad input without changing anything', async () => {
    const invited = (await call('POST', `${base}/team/invitations`, owner, { email: 'ben@shop.example' })).body.data;
    expect((await call('DELETE', `${base}/team/invitations/${invited.id}`, owner)).status).toBe(204);
    expect((await call('DELETE', `${base}/team/invitations/${invited.id}`, owner)).body.error.message).toBe('Invitation not found');
    // Signing in now joins nothing.
    const ben = await signInOverHttp(server.url, 'ben');
    expect((await call('GET', `${base}/team`, ben)).status).toBe(403);

    const before = await team();
    for (const [method, path, json, message] of [
      ['POST', '/team/invitations', { email: 'nope' }, 'email must be an email address of at most 254 characters'],
      ['POST', '/team/invitations', { email: 'x@y.example', role: 'admin' }, 'role must be one of: owner, member'],
      ['PATCH', '/team/members/abc', { role: 'owner' }, 'accountId must be a positive integer'],
      ['PATCH', '/team/members/999999', { role: 'owner' }, 'Team member not found'],
      ['DELETE', '/team/invitations/0', undefined, 'invitationId must be a positive integer'],
    ] as const) {
      const res = await call(method, `${base}${path}`, owner, json);
      expect(res.body.error.message, `${method} ${path}`).toBe(message);
    }
    expect(await team()).toEqual(before);
  });

  it('two owners demoting each other at once: exactly one passes (the other is refused as no longer an owner, or as the last one), and one owner remains', async () => {
    const anaCookie = await signInOverHttp(server.url, 'ana');
    const ids = Object.fromEntries((await team()).members.map((m: { email: string; account_id: number }) => [m.email, m.account_id]));
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([
        call('PATCH', `${base}/team/members/${ids['ana@shop.example']}`, owner, { role: 'member' }),
        call('PATCH', `${base}/team/members/${ids['owner@shop.example']}`, anaCookie, { role: 'member' }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const owners = (await team()).members.filter((m: { role: string }) => m.role === 'owner');
      expect(owners).toHaveLength(1);
      // Both owners again for the next round, by the one that still is.
      const demoted = a.status === 200 ? ids['ana@shop.example'] : ids['owner@shop.example'];
      const keeper = a.status === 200 ? owner : anaCookie;
      expect((await call('PATCH', `${base}/team/members/${demoted}`, keeper, { role: 'owner' })).status).toBe(200);
    }
  });
});
