import type { FastifyInstance } from 'fastify';

/** The dashboard page at /dashboard. */
export async function dashboardPageRoutes(_app: FastifyInstance): Promise<void> {}
