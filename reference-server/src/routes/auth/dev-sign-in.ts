import type { FastifyInstance } from 'fastify';
import { authorizeCliPage, signInPage } from '../../dashboard/sign-in-page';
import { openLoginSession, requestCliAuthorization } from '../../domain/login/cli-login';
import { normaliseEmail, signInDevAccount } from '../../domain/login/dev-sign-in';
import { fail } from '../../errors/service-error';
import { formTokenValid, issueFormToken } from '../../http/form-token';
import { sendPage } from '../../http/page';
import { pageSecurity } from '../../http/security-headers';
import { loginContext } from '../login-context';
import { sendSignInFailure } from './failure';
import { startDashboardSession } from './start-session';

type Form = { email?: unknown; state?: unknown; csrf?: unknown } | undefined;

/**
 * `POST /auth/sign-in`, the development sign-in (only with `SVC_DEV_SIGN_IN=1` or test control): anyone can sign
 * in as any email, so it is never on by default. The form's CSRF token must match its cookie. With `state` it leads
 * to the CLI login's Authorize page; without, it starts a dashboard session.
 */
export async function devSignInRoutes(app: FastifyInstance): Promise<void> {
  const deps = loginContext(app);

  app.post<{ Body: Form }>('/auth/sign-in', pageSecurity, async (request, reply) => {
    // Off: the route does not exist for this server (404 in the envelope, like any unknown route).
    if (!app.svc.signIn.dev) throw fail('routeNotFound');
    const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
    const state = typeof form.state === 'string' && form.state !== '' ? form.state : undefined;
    const key = await app.svc.serverKey();
    try {
      if (!formTokenValid(request, key, form.csrf)) throw fail('signInFormExpired');
      const email = normaliseEmail(form.email);
      if (!email) {
        const csrf = issueFormToken(reply, key, app.svc.sessionCookie.secure);
        const view = {
          error: 'Enter a valid email address.',
          csrf,
          oidc: app.svc.signIn.identityProvider !== undefined,
          hint: app.svc.signIn.hint,
        };
        return sendPage(reply, 400, signInPage(state === undefined ? view : { ...view, state }));
      }
      // An unknown or expired CLI session is refused before the dev account is created: nothing recorded.
      const session = state === undefined ? undefined : await openLoginSession(deps(), state);
      const account = await signInDevAccount(deps(), email);
      if (session) {
        const pending = await requestCliAuthorization(deps(), session, account.id);
        return sendPage(reply, 200, authorizeCliPage({ email: account.email, ...pending }));
      }
      await startDashboardSession(app, request, reply, account.id);
      return reply.status(303).header('Location', '/dashboard').send();
    } catch (error) {
      return sendSignInFailure(reply, error, state !== undefined);
    }
  });
}
