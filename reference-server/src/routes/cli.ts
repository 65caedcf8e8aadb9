import type { FastifyInstance } from 'fastify';
import { initProgram } from '../domain/cli/init';
import { listAccountPrograms } from '../domain/cli/programs';
import type { DomainDeps } from '../domain/deps';
import { requireLoginToken } from '../domain/login/login-token';
import { fail } from '../http/http-error';

/** §CLI routes: /api/v1/cli/init, /programs, /status, /test-event, /stripe-connect. */
export async function cliRoutes(app: FastifyInstance): Promise<void> {
  const deps = (): DomainDeps => ({ db: app.svc.store.db, clock: app.svc.clock, faults: app.svc.faults, log: app.log });
  const session = () => ({ store: app.svc.store, clock: app.svc.clock });

  app.post('/api/v1/cli/init', { config: { rateLimit: 'cli', cliFailure: 'init' } }, async (request, reply) => {
    const account = await requireLoginToken(session(), request.headers.authorization, 'init');
    const program = await initProgram(deps(), account, request.body);
    return reply.status(201).send({ data: { program } });
  });

  app.get('/api/v1/cli/programs', { config: { rateLimit: 'cli', cliFailure: 'programs' } }, async (request) => {
    const account = await requireLoginToken(session(), request.headers.authorization, 'programs');
    return { data: { programs: await listAccountPrograms(deps(), account.id) } };
  });

  // §Versioning rule 3: retired; the message names the dashboard program settings as the replacement.
  app.post('/api/v1/cli/stripe-connect', { config: { rateLimit: 'cli' } }, async () => {
    throw fail('stripeConnectRetired');
  });
}
