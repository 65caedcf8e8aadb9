import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cliSignedInPage, signInFailedPage, signInPage } from '../dashboard/sign-in-page';
import { completeCliLogin, openLoginSession } from '../domain/login/cli-login';
import {
  createDashboardSession,
  endDashboardSession,
  readCookie,
  sessionCookie,
  sessionCookieName,
} from '../domain/login/dashboard-session';
import { issuerOf } from '../domain/login/deps';
import { normaliseEmail, signInDevAccount } from '../domain/login/dev-sign-in';
import { issueIdToken } from '../domain/login/id-token';
import { dashboardSessionMs } from '../domain/login/lifetimes';
import { bodyLimitBytes } from '../http/body-parsers';
import { ServiceError } from '../errors/service-error';
import { loginDeps } from './login-deps';

type Form = { email?: unknown; state?: unknown } | undefined;

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);

/** HTTPS requests (directly or behind a trusted proxy) get a `Secure` cookie. */
const isHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * What to do after a refused sign-in. §Authentication rule 4: a suspended account (`ACCOUNT_BLOCKED`) is refused
 * however often it retries, so it is never told to sign in again; a CLI session that is unknown, used or expired
 * is, since a new `svc login` starts a fresh one.
 */
function retryHint(error: ServiceError, cliLogin: boolean): string {
  if (error.details.code === 'ACCOUNT_BLOCKED') {
    return 'Signing in again will not help while the account is suspended. Contact your workspace owner or support.';
  }
  return cliLogin ? 'Run svc login again to start a new sign-in.' : 'Contact support if you think this is a mistake.';
}

/**
 * The development identity provider (§CLI routes: "sign-in URL"): `GET /auth/sign-in` shows an email form;
 * `POST /auth/sign-in` signs in (creating the dev account on first use), issues an id_token and completes the
 * CLI login named by `state`, or, without `state`, starts a dashboard session. `POST /auth/sign-out` ends it.
 */
export async function signInRoutes(app: FastifyInstance): Promise<void> {
  const deps = loginDeps(app);

  // An HTML form posts url-encoded; accepted only by the routes of this plugin.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: bodyLimitBytes },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get<{ Querystring: { state?: string } }>('/auth/sign-in', async (request, reply) => {
    const state = typeof request.query.state === 'string' && request.query.state !== '' ? request.query.state : undefined;
    return html(reply, 200, signInPage(state === undefined ? {} : { state }));
  });

  app.post<{ Body: Form }>('/auth/sign-in', async (request, reply) => {
    const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
    const state = typeof form.state === 'string' && form.state !== '' ? form.state : undefined;
    const email = normaliseEmail(form.email);
    if (!email) {
      const view = { error: 'Enter a valid email address.', ...(state === undefined ? {} : { state }) };
      return html(reply, 400, signInPage(view));
    }
    try {
      // An unknown or expired CLI session is refused before the dev account is created: nothing recorded.
      if (state !== undefined) await openLoginSession(deps(), state);
      const account = await signInDevAccount(deps(), email);
      if (state !== undefined) {
        const idToken = await issueIdToken(issuerOf(deps()), { accountId: account.id, email: account.email });
        await completeCliLogin(deps(), state, idToken);
        return html(reply, 200, cliSignedInPage(account.email));
      }
      const { token } = await createDashboardSession(deps(), account.id);
      reply.header('Set-Cookie', sessionCookie(token, { secure: isHttps(request), maxAgeSeconds: dashboardSessionMs / 1000 }));
      return reply.status(303).header('Location', '/dashboard').send();
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      return html(reply, error.status, signInFailedPage(error.message, retryHint(error, state !== undefined)));
    }
  });

  app.post('/auth/sign-out', async (request, reply) => {
    const token = readCookie(request.headers.cookie, sessionCookieName);
    if (token) await endDashboardSession(deps(), token);
    reply.header('Set-Cookie', sessionCookie('', { secure: isHttps(request), maxAgeSeconds: 0 }));
    return reply.status(303).header('Location', '/dashboard').send();
  });
}
