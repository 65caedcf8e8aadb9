import type { FastifyInstance } from 'fastify';
import { completeCliLogin, pollCliLogin, startCliLogin } from '../domain/login/cli-login';
import { loginContext } from './login-context';

type Body = { state?: unknown; id_token?: unknown } | undefined;

/**
 * spec/rules.md "CLI routes": /api/v1/cli/auth/start, /callback, /poll. No credential (spec/rules.md "Authentication"), so the `/cli/*` rate
 * limit counted per client IP: the `cliAuth` bucket, which ignores any Bearer header.
 */
export async function cliAuthRoutes(app: FastifyInstance): Promise<void> {
  const deps = loginContext(app);

  app.post('/api/v1/cli/auth/start', { config: { rateLimit: 'cliAuth', cliFailure: 'authStart' } }, async () => ({
    data: await startCliLogin(deps()),
  }));

  app.post<{ Body: Body }>(
    '/api/v1/cli/auth/callback',
    { config: { rateLimit: 'cliAuth', cliFailure: 'authCallback' } },
    async (request) => {
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      await completeCliLogin(deps(), body.state, body.id_token);
      return { data: { status: 'signed_in' as const } };
    },
  );

  app.get<{ Querystring: { state?: string } }>(
    '/api/v1/cli/auth/poll',
    { config: { rateLimit: 'cliAuth', cliFailure: 'authPoll' } },
    async (request) => ({ data: await pollCliLogin(deps(), request.query.state) }),
  );
}
