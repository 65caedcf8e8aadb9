import type { FastifyInstance } from 'fastify';

/** §CLI routes: /api/v1/cli/auth/start, /callback, /poll, and the development sign-in page. */
export async function cliAuthRoutes(_app: FastifyInstance): Promise<void> {}
