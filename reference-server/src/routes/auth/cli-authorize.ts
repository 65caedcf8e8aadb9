import type { FastifyInstance } from 'fastify';
import { cliSignedInPage } from '../../dashboard/sign-in-page';
import { authorizeCliLogin } from '../../domain/login/cli-login';
import { sendPage } from '../../http/page';
import { pageSecurity } from '../../http/security-headers';
import { loginContext } from '../login-context';
import { sendSignInFailure } from './failure';

/**
 * `POST /auth/cli/authorize`: the Authorize button of a CLI login (form field `confirm`, the one-time token the page
 * carried). Only this completes a browser-signed-in CLI login; the next poll hands the login token out.
 */
export async function cliAuthorizeRoutes(app: FastifyInstance): Promise<void> {
  const deps = loginContext(app);

  app.post<{ Body: { confirm?: unknown } | undefined }>('/auth/cli/authorize', pageSecurity, async (request, reply) => {
    try {
      const account = await authorizeCliLogin(deps(), request.body?.confirm);
      return sendPage(reply, 200, cliSignedInPage(account.email));
    } catch (error) {
      return sendSignInFailure(reply, error, true);
    }
  });
}
