import type { FastifyInstance } from 'fastify';

/** §Dashboard routes: /api/tracking/*. */
export async function dashboardRoutes(_app: FastifyInstance): Promise<void> {}
