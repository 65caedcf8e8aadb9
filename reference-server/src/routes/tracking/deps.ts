import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/deps';

/** The domain's dependencies for one request, read from `app.svc` at call time (the test clock may move). */
export function domainDeps(app: FastifyInstance, request: FastifyRequest): DomainDeps {
  return { db: app.svc.store.db, clock: app.svc.clock, faults: app.svc.faults, log: request.log };
}
