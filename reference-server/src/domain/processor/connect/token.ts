import type { StripeConnectConfig } from '../../../config';
import { fail } from '../../../errors/service-error';
import { asObject, asString } from '../json';

const connectedAccountPattern = /^acct_[A-Za-z0-9]{1,64}$/;
const timeoutMs = 10_000;

/** Stripe's refusal of a code (`error`, `error_description` of its OAuth answer), for the page and the log. */
interface StripeRefusal {
  error: string;
  description: string | undefined;
}

/**
 * Exchanges an authorization code at `POST ${SVC_STRIPE_CONNECT_URL}/oauth/token` as Stripe documents (form body
 * `grant_type=authorization_code` and `code`; the platform's secret key as the HTTP Basic user name) and answers
 * the connected account's id (`stripe_user_id`). The access and refresh tokens are not kept: svc reads only
 * webhooks, which Stripe signs with the endpoint secret. Stripe's refusal is thrown as `stripeConnectRefused`
 * (with `details.stripe_error`), no answer or a 5xx as `stripeConnectUnreachable`.
 */
export async function exchangeConnectCode(connect: StripeConnectConfig, code: string): Promise<string> {
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(new URL('/oauth/token', connect.connectUrl), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${connect.secretKey}:`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code }).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await response.json().catch(() => undefined);
  } catch (cause) {
    throw fail('stripeConnectUnreachable', { cause });
  }
  if (response.status >= 500) throw fail('stripeConnectUnreachable', { details: { status: response.status } });
  const answer = asObject(body);
  const account = asString(answer?.stripe_user_id);
  if (response.ok && account !== undefined && connectedAccountPattern.test(account)) return account;
  const refusal: StripeRefusal = {
    error: asString(answer?.error) ?? `http_${response.status}`,
    description: asString(answer?.error_description),
  };
  throw fail('stripeConnectRefused', { details: { stripe_error: refusal } });
}
