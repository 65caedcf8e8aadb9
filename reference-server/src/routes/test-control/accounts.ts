import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors/service-error';
import { loginContext } from '../login-context';
import { createDashboardSession } from '../../domain/login/dashboard-session';
import { issueIdToken } from '../../domain/login/id-token';
import { issuerOf } from '../../domain/login/context';
import { createAccountWithWorkspace } from '../../store/new-account';
import { findAccountById, findWorkspaceIdOfProgram, upsertMembership } from '../../store/accounts';
import { isUniqueViolation } from '../../store/unique-violation';

type Body = Record<string, unknown> | undefined;

const invalid = (message: string) => fail('testControlInvalid', { message });
const notFound = (message: string) => fail('testControlNotFound', { message });

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('Body must be a JSON object');
  return body as Record<string, unknown>;
}

function integerField(body: Record<string, unknown>, name: string): number {
  const value = body[name];
  if (!Number.isSafeInteger(value)) throw invalid(`${name} is required and must be an integer`);
  return value as number;
}

/** Test-control: accounts, id-tokens, dashboard sessions, memberships. */
export async function accountControlRoutes(app: FastifyInstance): Promise<void> {
  const deps = loginContext(app);

  app.post<{ Body: Body }>('/_test/accounts', async (request, reply) => {
    const body = objectBody(request.body);
    if (body.email !== undefined && typeof body.email !== 'string') throw invalid('email must be a string');
    if (body.blocked !== undefined && typeof body.blocked !== 'boolean') throw invalid('blocked must be a boolean');
    try {
      const created = await createAccountWithWorkspace(app.svc.store.db, {
        ...(body.email === undefined ? {} : { email: body.email.toLowerCase() }),
        blocked: body.blocked === true,
        now: app.svc.clock.now(),
      });
      return reply.status(201).send({ account_id: created.accountId, advertiser_id: created.advertiserId });
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid(`An account with email ${String(body.email)} already exists`);
      throw error;
    }
  });

  app.post<{ Body: Body }>('/_test/id-tokens', async (request, reply) => {
    const accountId = integerField(objectBody(request.body), 'account_id');
    const account = await findAccountById(app.svc.store.db, accountId);
    if (!account) throw notFound(`Account ${accountId} not found`);
    const idToken = await issueIdToken(await issuerOf(deps()), { accountId: account.id, email: account.email });
    return reply.status(201).send({ id_token: idToken });
  });

  app.post<{ Body: Body }>('/_test/dashboard-sessions', async (request, reply) => {
    const accountId = integerField(objectBody(request.body), 'account_id');
    if (!(await findAccountById(app.svc.store.db, accountId))) throw notFound(`Account ${accountId} not found`);
    const { token } = await createDashboardSession(deps(), accountId);
    return reply.status(201).send({ name: app.svc.sessionCookie.name, value: token });
  });

  app.post<{ Body: Body }>('/_test/memberships', async (request, reply) => {
    const body = objectBody(request.body);
    const accountId = integerField(body, 'account_id');
    const programId = integerField(body, 'program_id');
    if (body.role !== 'owner' && body.role !== 'member') throw invalid('role must be owner or member');
    const db = app.svc.store.db;
    if (!(await findAccountById(db, accountId))) throw notFound(`Account ${accountId} not found`);
    const workspaceId = await findWorkspaceIdOfProgram(db, programId);
    if (workspaceId === undefined) throw notFound(`Program ${programId} not found`);
    await upsertMembership(db, { workspaceId, accountId, role: body.role, now: app.svc.clock.now() });
    return reply.status(201).send({ account_id: accountId, program_id: programId, role: body.role });
  });
}
