import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createDashboardSession, endDashboardSession } from '../../domain/login/dashboard-session';
import { dashboardSessionMs } from '../../domain/login/lifetimes';
import { readSessionToken, setSessionCookie } from '../../http/session-cookie';

/**
 * Signs the browser in as the account: always a new session id (a session the browser held before ends on the
 * server, so no fixed or stolen id outlives a sign-in), in the session cookie decided from `PUBLIC_URL`.
 */
export async function startDashboardSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: number,
): Promise<void> {
  const deps = { store: app.svc.store, clock: app.svc.clock };
  const previous = readSessionToken(request, app.svc.sessionCookie);
  if (previous) await endDashboardSession(deps, previous);
  const { token } = await createDashboardSession(deps, accountId);
  setSessionCookie(reply, app.svc.sessionCookie, token, dashboardSessionMs / 1000);
}
