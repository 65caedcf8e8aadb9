import type { FastifyInstance } from 'fastify';
import { authorizeCliPage } from '../../dashboard/sign-in-page';
import { requestCliAuthorization } from '../../domain/login/cli-login';
import { finishSignIn } from '../../domain/login/oidc-sign-in';
import { fail } from '../../errors/service-error';
import { sendPage } from '../../http/page';
import { pageSecurity } from '../../http/security-headers';
import { cookieHeader, readCookie } from '../../http/session-cookie';
import { loginContext } from '../login-context';
import { sendSignInFailure } from './failure';
import { oidcStateCookie } from './sign-in-page';
import { startDashboardSession } from './start-session';

type Query = { code?: string; state?: string; error?: string };

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * `GET /auth/callback`, the OpenID Connect redirect URI (`${PUBLIC_URL}/auth/callback`): exchanges the code,
 * validates the ID token, then starts a dashboard session, or shows the CLI login's user code and Authorize button.
 */
export async function oidcCallbackRoutes(app: FastifyInstance): Promise<void> {
  const deps = loginContext(app);

  app.get<{ Querystring: Query }>('/auth/callback', pageSecurity, async (request, reply) => {
    const provider = app.svc.signIn.identityProvider;
    // Without OpenID Connect this route does not exist for the server (404 in the envelope, like any unknown route).
    if (!provider) throw fail('routeNotFound');
    // The state cookie is single-use whatever happens next.
    reply.header(
      'Set-Cookie',
      cookieHeader(oidcStateCookie, '', { secure: app.svc.sessionCookie.secure, maxAgeSeconds: 0, path: '/auth/callback' }),
    );
    try {
      const signedIn = await finishSignIn(deps(), provider, {
        url: new URL(request.url, app.svc.publicUrl),
        state: text(request.query.state),
        browserState: readCookie(request.headers.cookie, oidcStateCookie),
        error: text(request.query.error),
      });
      if (signedIn.cliSession) {
        const pending = await requestCliAuthorization(deps(), signedIn.cliSession, signedIn.account.id);
        return sendPage(reply, 200, authorizeCliPage({ email: signedIn.account.email, ...pending }));
      }
      await startDashboardSession(app, request, reply, signedIn.account.id);
      return reply.status(303).header('Location', '/dashboard').send();
    } catch (error) {
      request.log.warn({ err: error }, 'OpenID Connect sign-in refused');
      return sendSignInFailure(reply, error, false);
    }
  });
}
