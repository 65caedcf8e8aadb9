import type { FastifyInstance } from 'fastify';
import { endDashboardSession } from '../../domain/login/dashboard-session';
import { readSessionToken, setSessionCookie } from '../../http/session-cookie';

/** `POST /auth/sign-out`: ends the session on the server (the cookie alone no longer works) and clears the cookie. */
export async function signOutRoutes(app: FastifyInstance): Promise<void> {
  app.post('/auth/sign-out', async (request, reply) => {
    const token = readSessionToken(request, app.svc.sessionCookie);
    if (token) await endDashboardSession({ store: app.svc.store }, token);
    setSessionCookie(reply, app.svc.sessionCookie, '', 0);
    return reply.status(303).header('Location', '/dashboard').send();
  });
}
