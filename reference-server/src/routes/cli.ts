import type { FastifyInstance } from 'fastify';

/** §CLI routes: /api/v1/cli/init, /programs, /status, /test-event, /stripe-connect. */
export async function cliRoutes(_app: FastifyInstance): Promise<void> {}
