import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Stripe's Connect OAuth endpoints (a real node:http server on 127.0.0.1), as Stripe documents
 * them (docs.stripe.com/connect/oauth-reference):
 * - `GET /oauth/authorize?response_type=code&client_id&scope&state&redirect_uri`: the consent page; here the person
 *   "clicks" at once: a 302 back to `redirect_uri` with `code` and `state` (and `scope`), or with
 *   `error=access_denied` when `decline` is set.
 * - `POST /oauth/token` (form body `grant_type=authorization_code`, `code`; the platform's secret key as the HTTP
 *   Basic user name, or `client_secret`): `{ access_token, livemode, refresh_token, token_type,
 *   stripe_publishable_key, stripe_user_id, scope }`; a code works once; Stripe's error shape otherwise.
 */
export interface StripeConnectStandIn {
  url: string;
  clientId: string;
  secretKey: string;
  /** The account the next consent connects. */
  account: string;
  /** The next consent is declined. */
  decline: boolean;
  /** Token requests received (code, how it authenticated, its answer's status). */
  tokenRequests: { code: string | undefined; status: number }[];
  close(): Promise<void>;
}

export async function startStripeConnectStandIn(): Promise<StripeConnectStandIn> {
  const codes = new Map<string, { account: string; used: boolean }>();
  const standIn: StripeConnectStandIn = {
    url: '',
    clientId: `ca_${randomBytes(8).toString('hex')}`,
    secretKey: `sk_test_${randomBytes(12).toString('hex')}`,
    account: 'acct_standin',
    decline: false,
    tokenRequests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return status;
  };

  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    if (q.get('response_type') !== 'code' || q.get('client_id') !== standIn.clientId || q.get('scope') !== 'read_write') {
      return json(res, 400, { error: 'invalid_request', error_description: 'Invalid client_id, response_type or scope' });
    }
    const back = new URL(q.get('redirect_uri') ?? '');
    const state = q.get('state') ?? '';
    if (standIn.decline) {
      back.search = new URLSearchParams({ error: 'access_denied', error_description: 'The user denied your request', state }).toString();
    } else {
      const code = `ac_${randomBytes(12).toString('hex')}`;
      codes.set(code, { account: standIn.account, used: false });
      back.search = new URLSearchParams({ scope: 'read_write', code, state }).toString();
    }
    res.writeHead(302, { location: back.href }).end();
    return 302;
  }

  function token(req: IncomingMessage, body: string, res: ServerResponse) {
    const form = new URLSearchParams(body);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const user = basic === undefined ? undefined : Buffer.from(basic, 'base64').toString().split(':')[0];
    const key = user ?? form.get('client_secret') ?? undefined;
    const code = form.get('code') ?? undefined;
    const answer = (status: number, payload: unknown) => standIn.tokenRequests.push({ code, status: json(res, status, payload) });
    if (key === undefined) return answer(401, { error: 'invalid_client', error_description: 'No authentication was provided.' });
    if (key !== standIn.secretKey)
      return answer(401, { error: 'invalid_client', error_description: `Invalid API Key provided: ${key.slice(0, 8)}****` });
    if (form.get('grant_type') !== 'authorization_code')
      return answer(400, { error: 'unsupported_grant_type', error_description: 'Only authorization_code here' });
    const grant = code === undefined ? undefined : codes.get(code);
    if (!grant || grant.used)
      return answer(400, { error: 'invalid_grant', error_description: `Authorization code does not exist: ${code}` });
    grant.used = true;
    return answer(200, {
      access_token: `sk_test_${randomBytes(12).toString('hex')}`,
      livemode: false,
      refresh_token: `rt_${randomBytes(12).toString('hex')}`,
      token_type: 'bearer',
      stripe_publishable_key: `pk_test_${randomBytes(12).toString('hex')}`,
      stripe_user_id: grant.account,
      scope: 'read_write',
    });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', standIn.url);
      if (req.method === 'GET' && url.pathname === '/oauth/authorize') authorize(url, res);
      else if (req.method === 'POST' && url.pathname === '/oauth/token') token(req, Buffer.concat(chunks).toString(), res);
      else json(res, 404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
