import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import Provider from 'oidc-provider';

export interface TestUser {
  email?: string;
  email_verified?: boolean;
}

export interface TestIssuer {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The issuer's signing key (to mint tokens the JWKS vouches for). */
  privateKey: CryptoKey;
  kid: string;
  /** Registers the relying party's redirect URI and starts answering. */
  serve(redirectUri: string): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Provider (`oidc-provider`, its built-in login and consent pages: any login, any password) with
 * one confidential client. Listening starts first, so the reference server can be configured with its URL before
 * the client (which needs the server's redirect URI) is registered.
 */
export async function startIssuer(users: Record<string, TestUser>): Promise<TestIssuer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'test-issuer-key';
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const clientId = 'svc-reference-server';
  const clientSecret = 'a-client-secret-known-to-the-issuer-and-svc';

  return {
    url,
    clientId,
    clientSecret,
    privateKey,
    kid,
    serve(redirectUri) {
      const provider = new Provider(url, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: ['a-cookie-key-for-the-test-issuer'] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        pkce: { required: () => true },
        async findAccount(_ctx, sub) {
          const user = users[sub];
          if (!user) return undefined;
          return { accountId: sub, claims: async () => ({ sub, ...user }) };
        },
      });
      const handle = provider.callback();
      http.on('request', (req, res) => void handle(req, res));
    },
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
