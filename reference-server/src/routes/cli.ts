import { domainContext } from './domain-context';
import type { FastifyInstance } from 'fastify';
import { initProgram } from '../domain/cli/init';
import { listAccountPrograms } from '../domain/cli/programs';
import { programStatus } from '../domain/cli/status';
import { createTestEvent, parseEventType, runSyntheticChain } from '../domain/cli/test-event';
import { requireLoginToken } from '../domain/login/login-token';
import { cliFailure, fail, ServiceError } from '../errors/service-error';
import { keyProgramOf, programKeyHook } from '../http/program-key';

type TestEventBody = { event_type?: unknown; type?: unknown } | undefined;

/** spec/rules.md "CLI routes": /api/v1/cli/init, /programs, /status, /test-event, /stripe-connect. */
export async function cliRoutes(app: FastifyInstance): Promise<void> {
  const deps = () => domainContext(app);
  const session = () => ({ store: app.svc.store, clock: app.svc.clock });

  // Account routes: also the dashboard's limits (`ManagementRateLimited`), program creation counted per account.
  app.post('/api/v1/cli/init', { config: { rateLimit: 'cli', management: 'loginToken', cliFailure: 'init' } }, async (request, reply) => {
    const account = await requireLoginToken(session(), request.headers.authorization, 'init');
    app.svc.faults.check('cli');
    const program = await initProgram(deps(), app.svc.workspaceCreators, account, request.body);
    return reply.status(201).send({ data: { program } });
  });

  app.get('/api/v1/cli/programs', { config: { rateLimit: 'cli', management: 'loginToken', cliFailure: 'programs' } }, async (request) => {
    const account = await requireLoginToken(session(), request.headers.authorization, 'programs');
    app.svc.faults.check('cli');
    return { data: { programs: await listAccountPrograms(deps(), account.id) } };
  });

  // spec/rules.md "Request ids": this route's 200, 401 and 429 carry no X-Request-ID; only its 500 does.
  app.get(
    '/api/v1/cli/status',
    { config: { rateLimit: 'cli', cliFailure: 'status', requestIdOnlyOn500: true }, onRequest: programKeyHook(app, 'cli') },
    async (request) => {
      const program = keyProgramOf(request);
      return { data: await programStatus(deps(), program) };
    },
  );

  app.post<{ Body: TestEventBody }>(
    '/api/v1/cli/test-event',
    { config: { rateLimit: 'cli', cliFailure: 'testEvent' }, onRequest: programKeyHook(app, 'cli') },
    async (request) => {
      const program = keyProgramOf(request);
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      if (body.type === 'chain') {
        try {
          return { data: await runSyntheticChain(deps(), program) };
        } catch (error) {
          if (error instanceof ServiceError) throw error;
          throw cliFailure('chain', request.id, error);
        }
      }
      const type = parseEventType(body.event_type);
      return { data: await createTestEvent(deps(), program, type) };
    },
  );

  // spec/rules.md "Versioning" rule 3: retired; the message names the dashboard program settings as the replacement.
  // Refused before the body is read, so any body answers the same 410. spec/rules.md "Endpoints/Summary" says "always 410", so it
  // is outside the `/cli/*` rate limit: it does nothing and records nothing, and a full bucket must not turn it 429.
  app.post(
    '/api/v1/cli/stripe-connect',
    {
      onRequest: async () => {
        throw fail('stripeConnectRetired');
      },
    },
    async () => {
      throw fail('stripeConnectRetired');
    },
  );
}
