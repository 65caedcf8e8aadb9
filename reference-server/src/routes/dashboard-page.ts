import type { FastifyInstance } from 'fastify';
import { appCss } from '../dashboard/assets/app-css';
import { appJs } from '../dashboard/assets/app-js';
import { partnersJs } from '../dashboard/assets/partners-js';
import { webhooksJs } from '../dashboard/assets/webhooks-js';
import { dashboardPage } from '../dashboard/dashboard-page';
import { signedOutPage, signInFailedPage } from '../dashboard/sign-in-page';
import { requireDashboardAccount } from '../domain/login/dashboard-session';
import { handledEventTypes } from '../domain/processor/event';
import { fail, ServiceError } from '../errors/service-error';
import { sendPage } from '../http/page';
import { pageSecurity } from '../http/security-headers';
import { readSessionToken } from '../http/session-cookie';

const assets: Record<string, { type: string; body: string }> = {
  'app.js': { type: 'application/javascript; charset=utf-8', body: appJs },
  'app.css': { type: 'text/css; charset=utf-8', body: appCss },
  'partners.js': { type: 'application/javascript; charset=utf-8', body: partnersJs },
  'webhooks.js': { type: 'application/javascript; charset=utf-8', body: webhooksJs },
};

/** The dashboard page at /dashboard (signed in: the app; otherwise a Sign in button) and its two assets. */
export async function dashboardPageRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard', pageSecurity, async (request, reply) => {
    try {
      const token = readSessionToken(request, app.svc.sessionCookie);
      const account = await requireDashboardAccount({ store: app.svc.store, clock: app.svc.clock }, token);
      const processorWebhook = {
        url: `${app.svc.publicUrl}/api/v1/webhooks/processor`,
        eventTypes: handledEventTypes,
        secretConfigured: app.svc.processorWebhookSecrets.length > 0,
      };
      return sendPage(reply, 200, dashboardPage({ email: account.email, publicUrl: app.svc.publicUrl, processorWebhook }));
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      if (error.status === 403) return sendPage(reply, 200, signInFailedPage(error.message, 'Contact support if you think this is a mistake.'));
      return sendPage(reply, 200, signedOutPage());
    }
  });

  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    const asset = assets[request.params.file];
    if (!asset) throw fail('routeNotFound');
    return reply.type(asset.type).header('Cache-Control', 'no-cache').send(asset.body);
  });
}
