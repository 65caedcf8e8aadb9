import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainContext } from '../domain/context';

/**
 * The domain's dependencies, read from `app.svc` at call time (the test clock may move): the one builder every route
 * file uses. With a request, its logger (the request id on every line).
 */
export function domainContext(app: FastifyInstance, request?: FastifyRequest): DomainContext {
  return { db: app.svc.store.db, clock: app.svc.clock, faults: app.svc.faults, log: request?.log ?? app.log, publicUrl: app.svc.publicUrl };
}
