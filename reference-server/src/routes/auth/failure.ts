import type { FastifyReply } from 'fastify';
import { signInFailedPage } from '../../dashboard/sign-in-page';
import { ServiceError } from '../../errors/service-error';
import { sendPage } from '../../http/page';

/**
 * What to do after a refused sign-in. spec/rules.md "Authentication" rule 4: a suspended account (`ACCOUNT_BLOCKED`) is refused
 * however often it retries, so it is never told to sign in again; a CLI session that is unknown, used or expired
 * is, since a new `svc login` starts a fresh one.
 */
function retryHint(error: ServiceError, cliLogin: boolean): string {
  if (error.details.code === 'ACCOUNT_BLOCKED') {
    return 'Signing in again will not help while the account is suspended. Contact your workspace owner or support.';
  }
  return cliLogin
    ? 'Run svc login again to start a new sign-in.'
    : 'Start again from the dashboard, or contact support if you think this is a mistake.';
}

/** A sign-in that cannot go on, as a page with the catalogue's message; anything else is the route's 500. */
export function sendSignInFailure(reply: FastifyReply, error: unknown, cliLogin: boolean) {
  if (!(error instanceof ServiceError) || (error.status >= 500 && error.status !== 503)) throw error;
  return sendPage(reply, error.status, signInFailedPage(error.message, retryHint(error, cliLogin)));
}
