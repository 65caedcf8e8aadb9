import type { FastifyInstance, FastifyReply } from 'fastify';
import { appCss } from '../dashboard/assets/app-css';
import { appJs } from '../dashboard/assets/app-js';
import { dashboardPage } from '../dashboard/dashboard-page';
import { signInFailedPage, signInPage } from '../dashboard/sign-in-page';
import { readCookie, requireDashboardAccount, sessionCookieName } from '../domain/login/dashboard-session';
import { fail, ServiceError } from '../errors/service-error';

const assets: Record<string, { type: string; body: string }> = {
  'app.js': { type: 'application/javascript; charset=utf-8', body: appJs },
  'app.css': { type: 'text/css; charset=utf-8', body: appCss },
};

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);

/** The dashboard page at /dashboard (signed in: the app; otherwise the sign-in form) and its two assets. */
export async function dashboardPageRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard', async (request, reply) => {
    try {
      const token = readCookie(request.headers.cookie, sessionCookieName);
      const account = await requireDashboardAccount({ store: app.svc.store, clock: app.svc.clock }, token);
      return html(reply, 200, dashboardPage({ email: account.email, publicUrl: app.svc.publicUrl }));
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      if (error.status === 403) return html(reply, 200, signInFailedPage(error.message, 'Contact support if you think this is a mistake.'));
      return html(reply, 200, signInPage({}));
    }
  });

  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    const asset = assets[request.params.file];
    if (!asset) throw fail('routeNotFound');
    return reply.type(asset.type).header('Cache-Control', 'no-cache').send(asset.body);
  });
}
