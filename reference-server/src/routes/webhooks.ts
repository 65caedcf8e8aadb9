import type { FastifyInstance } from 'fastify';

/** POST /api/v1/webhooks/processor (Stripe events). */
export async function webhookRoutes(_app: FastifyInstance): Promise<void> {}
