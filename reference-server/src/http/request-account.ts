import { signedInAccountId } from '../domain/login/signed-in-account';
import type { Services } from '../services';
import type { AccountOf } from './rate-limit';
import { readSessionToken } from './session-cookie';

/**
 * The account a management route's request is signed in as, for its per-account write limit: the session cookie on
 * the dashboard's routes, the Bearer login token on the CLI's (never the other, which those routes ignore).
 */
export function requestAccount(svc: Pick<Services, 'store' | 'clock' | 'sessionCookie'>): AccountOf {
  return (request, credential) =>
    signedInAccountId(
      svc,
      credential === 'session'
        ? { sessionToken: readSessionToken(request, svc.sessionCookie) }
        : { authorization: request.headers.authorization },
    );
}
