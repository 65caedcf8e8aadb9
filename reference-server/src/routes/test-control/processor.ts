import type { FastifyInstance } from 'fastify';

/** Test-control: processor connections. */
export async function processorControlRoutes(_app: FastifyInstance): Promise<void> {}
