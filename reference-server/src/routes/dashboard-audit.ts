import type { FastifyInstance } from 'fastify';
import { auditLogPage } from '../domain/audit/list';
import { dashboardContext } from './dashboard-auth';

/**
 * The program's audit log (spec `dashboardAuditLog`), read by any active member. There is no write route: entries
 * are appended only by the changes they record (`domain/audit/record.ts`).
 */
export async function dashboardAuditRoutes(app: FastifyInstance): Promise<void> {
  const { deps, access } = dashboardContext(app);

  app.get<{ Params: { programId: string }; Querystring: Record<string, unknown> }>(
    '/api/dashboard/programs/:programId/audit-log',
    async (request) => {
      const { program } = await access(request, request.params.programId);
      return { data: await auditLogPage(deps(), program, request.query) };
    },
  );
}
