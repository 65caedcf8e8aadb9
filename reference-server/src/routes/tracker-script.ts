import type { FastifyInstance } from 'fastify';

/** GET /js/svc-tracker.js, with Cache-Control and ETag. */
export async function trackerScriptRoutes(_app: FastifyInstance): Promise<void> {}
