import type { FastifyInstance } from 'fastify';

/** GET /api/v1/programs/me/readiness. */
export async function readinessRoutes(_app: FastifyInstance): Promise<void> {}
