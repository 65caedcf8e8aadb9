import type { FastifyInstance } from 'fastify';
import { signInNotConfiguredPage, signInPage } from '../../dashboard/sign-in-page';
import { beginSignIn } from '../../domain/login/oidc-sign-in';
import { signInAttemptMs } from '../../domain/login/lifetimes';
import { catalogue } from '@svc/types';
import { issueFormToken } from '../../http/form-token';
import { sendPage } from '../../http/page';
import { pageSecurity } from '../../http/security-headers';
import { cookieHeader } from '../../http/session-cookie';
import { loginContext } from '../login-context';
import { sendSignInFailure } from './failure';

/** Ties the OpenID Connect callback to the browser that began the sign-in (login CSRF, RFC 6749 section 10.12). */
export const oidcStateCookie = 'svc_oidc_state';

type Query = { state?: string; provider?: string };

/**
 * `GET /auth/sign-in[?state=<CLI login state>]`: with OpenID Connect configured, redirects to the issuer (state,
 * nonce, PKCE S256); with only the development sign-in, shows its email form; with neither, says what to configure.
 * When both are on, the form offers the issuer too (`?provider=oidc`).
 */
export async function signInPageRoutes(app: FastifyInstance): Promise<void> {
  const deps = loginContext(app);

  app.get<{ Querystring: Query }>('/auth/sign-in', pageSecurity, async (request, reply) => {
    const state = typeof request.query.state === 'string' && request.query.state !== '' ? request.query.state : undefined;
    const { identityProvider, dev } = app.svc.signIn;
    const secure = app.svc.sessionCookie.secure;

    if (identityProvider && (!dev || request.query.provider === 'oidc')) {
      try {
        const begun = await beginSignIn(deps(), identityProvider, state);
        const cookie = cookieHeader(oidcStateCookie, begun.state, {
          secure,
          maxAgeSeconds: signInAttemptMs / 1000,
          path: '/auth/callback',
        });
        return reply
          .status(302)
          .header('Set-Cookie', cookie)
          .header('Cache-Control', 'no-store')
          .header('Location', begun.authorizationUrl.href)
          .send();
      } catch (error) {
        return sendSignInFailure(reply, error, state !== undefined);
      }
    }
    if (dev) {
      const csrf = issueFormToken(reply, await app.svc.serverKey(), secure);
      return sendPage(
        reply,
        200,
        signInPage({ csrf, oidc: identityProvider !== undefined, hint: app.svc.signIn.hint, ...(state === undefined ? {} : { state }) }),
      );
    }
    return sendPage(reply, 503, signInNotConfiguredPage(catalogue.signInNotConfigured.message));
  });
}
