import type { FastifyInstance, FastifyReply } from 'fastify';
import { connectFailedPage } from '../dashboard/processor-connect-page';
import { beginStripeConnect } from '../domain/processor/connect/begin';
import { finishStripeConnect } from '../domain/processor/connect/finish';
import { fail, ServiceError } from '../errors/service-error';
import { sendPage } from '../http/page';
import { pageSecurity } from '../http/security-headers';
import { dashboardContext } from './dashboard-auth';

type Query = { code?: unknown; state?: unknown; error?: unknown; error_description?: unknown };

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * "Connect with Stripe" (Stripe Connect OAuth; spec/openapi.yaml `dashboardStartProcessorConnect` and
 * `processorConnectCallback`): the owner leaves the dashboard for Stripe's consent, Stripe sends the browser back to
 * `${PUBLIC_URL}/processor/callback`, and the account Stripe names is bound to the program.
 */
export async function processorConnectRoutes(app: FastifyInstance): Promise<void> {
  const { deps, account, access } = dashboardContext(app);
  const redirectUri = `${app.svc.publicUrl}/processor/callback`;

  app.get<{ Params: { programId: string } }>('/api/dashboard/programs/:programId/processor/connect', async (request, reply) => {
    // A GET, so the cross-site guard lets it through; it starts a binding, so only the dashboard's own link may.
    if (request.headers['sec-fetch-site'] === 'cross-site') throw fail('crossSiteRefused');
    const { account: viewer, program, role } = await access(request, request.params.programId);
    const url = await beginStripeConnect(deps(), app.svc.stripeConnect, { account: viewer, program, role, redirectUri });
    return reply.status(302).header('Location', url.href).send();
  });

  app.get<{ Querystring: Query }>('/processor/callback', pageSecurity, async (request, reply) => {
    // Unconfigured, this route does not exist for the server (404 in the envelope), as /auth/callback without OIDC.
    if (!app.svc.stripeConnect) throw fail('routeNotFound');
    try {
      const viewer = await account(request);
      const { programId } = await finishStripeConnect(deps(), app.svc.stripeConnect, viewer, {
        state: text(request.query.state),
        code: text(request.query.code),
        error: text(request.query.error),
      });
      return reply.status(303).header('Location', `/dashboard/programs/${programId}/settings`).send();
    } catch (error) {
      request.log.warn({ err: error }, 'Connect with Stripe refused');
      return sendConnectFailure(reply, error, text(request.query.error_description));
    }
  });
}

/** A connection that cannot go on, as a page with the catalogue's message; anything else is the route's 500. */
function sendConnectFailure(reply: FastifyReply, error: unknown, deniedDescription: string | undefined) {
  if (!(error instanceof ServiceError) || (error.status >= 500 && error.status !== 503)) throw error;
  const refusal = error.details.stripe_error as { description?: string } | string | undefined;
  const stripeSays = typeof refusal === 'object' ? refusal.description : refusal === undefined ? undefined : deniedDescription;
  return sendPage(reply, error.status, connectFailedPage({ message: error.message, stripeSays, backTo: '/dashboard' }));
}
