import type { FastifyInstance } from 'fastify';

/** §Endpoints: POST /api/v1/track/click, /lead, /sale, /refund. */
export async function trackingRoutes(_app: FastifyInstance): Promise<void> {}
