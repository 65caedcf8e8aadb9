import type { FastifyInstance } from 'fastify';

/** Test-control: accounts, id-tokens, dashboard sessions, memberships. */
export async function accountControlRoutes(_app: FastifyInstance): Promise<void> {}
