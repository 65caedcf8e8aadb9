import fastifyStatic from '@fastify/static';
import { mayCreateWorkspace } from '../domain/programs/creators';
import type { FastifyInstance } from 'fastify';
import { builtDashboardAssets } from '../dashboard/built-assets';
import { dashboardPage } from '../dashboard/dashboard-page';
import { signedOutPage, signInFailedPage } from '../dashboard/sign-in-page';
import { requireDashboardAccount } from '../domain/login/dashboard-session';
import { handledEventTypes } from '../domain/processor/event';
import { fail, ServiceError } from '../errors/service-error';
import { sendPage } from '../http/page';
import { pageSecurity } from '../http/security-headers';
import { readSessionToken } from '../http/session-cookie';

/** `?v=<the asset's version>` (the URL the pages use): the content behind it never changes. */
const immutable = 'public, max-age=31536000, immutable';
/** Any other URL of an asset: revalidated by ETag on every use. */
const revalidate = 'no-cache';

/** The dashboard page at /dashboard (signed in: the app; otherwise a Sign in button) and its built assets. */
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
      const canCreatePrograms = await mayCreateWorkspace(app.svc.store.db, app.svc.workspaceCreators, account);
      return sendPage(
        reply,
        200,
        dashboardPage({
          email: account.email,
          publicUrl: app.svc.publicUrl,
          processorWebhook,
          canCreatePrograms,
          stripeConnect: app.svc.stripeConnect !== undefined,
        }),
      );
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      if (error.status === 403)
        return sendPage(reply, 200, signInFailedPage(error.message, 'Contact support if you think this is a mistake.'));
      return sendPage(reply, 200, signedOutPage());
    }
  });

  // The built scripts and stylesheet (src/dashboard/built-assets.ts) and nothing else: any other name is a 404.
  // @fastify/static sends them (ETag, Last-Modified, 304 on a match, the content type); the route picks the file.
  const assets = builtDashboardAssets();
  await app.register(fastifyStatic, { root: assets.dir, serve: false, index: false, cacheControl: false });
  app.get<{ Params: { file: string }; Querystring: { v?: unknown } }>('/dashboard/assets/:file', async (request, reply) => {
    const { file } = request.params;
    const version = assets.versions.get(file);
    if (version === undefined) throw fail('routeNotFound');
    reply.header('Cache-Control', request.query.v === version ? immutable : revalidate);
    return reply.sendFile(file);
  });
}
