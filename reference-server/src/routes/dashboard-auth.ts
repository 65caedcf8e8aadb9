import { domainContext } from './domain-context';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireMembership } from '../domain/dashboard/access';
import { programIdFrom } from '../domain/dashboard/params';
import { requireDashboardAccount } from '../domain/login/dashboard-session';
import { readSessionToken } from '../http/session-cookie';

/** What the dashboard routes share: the domain deps, the signed-in account, and membership on a program. */
export function dashboardContext(app: FastifyInstance) {
  const deps = () => domainContext(app);

  /** spec/rules.md "Dashboard routes": the session cookie is the only credential (a Bearer key is ignored, so refused). */
  const account = (request: FastifyRequest) =>
    requireDashboardAccount({ store: app.svc.store, clock: app.svc.clock }, readSessionToken(request, app.svc.sessionCookie));

  /** Signed in, then a valid program id, then an active membership on that program. */
  const access = async (request: FastifyRequest, rawProgramId: unknown) => {
    const viewer = await account(request);
    const programId = programIdFrom(rawProgramId);
    return { account: viewer, ...(await requireMembership(deps(), viewer, programId)) };
  };

  return { deps, account, access };
}
