import type { FastifyInstance } from 'fastify';

/** Test-control: reset, programs, partners, links, key rotation, clock, faults, records. */
export async function coreControlRoutes(_app: FastifyInstance): Promise<void> {}
