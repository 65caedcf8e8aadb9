import type { FastifyInstance } from 'fastify';
import { bodyLimitBytes } from '../../http/body-parsers';
import { cliAuthorizeRoutes } from './cli-authorize';
import { devSignInRoutes } from './dev-sign-in';
import { oidcCallbackRoutes } from './oidc-callback';
import { signInPageRoutes } from './sign-in-page';
import { signOutRoutes } from './sign-out';

/**
 * The browser half of signing in (docs/deploying.md, "Sign-in"): `/auth/sign-in` starts OpenID Connect or shows
 * the development form, `/auth/callback` comes back from the issuer, `/auth/cli/authorize` confirms a CLI login,
 * `/auth/sign-out` ends the session. The email-only `POST /auth/sign-in` answers 404 unless dev sign-in is on.
 */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  // HTML forms post url-encoded; accepted only by the routes of this plugin.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: bodyLimitBytes }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.register(signInPageRoutes);
  app.register(oidcCallbackRoutes);
  app.register(cliAuthorizeRoutes);
  app.register(signOutRoutes);
  app.register(devSignInRoutes);
}
