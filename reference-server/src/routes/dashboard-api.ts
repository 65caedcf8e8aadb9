import type { FastifyInstance } from 'fastify';
import { initProgram } from '../domain/cli/init';
import { listAccountPrograms } from '../domain/cli/programs';
import { mayCreateWorkspace } from '../domain/programs/creators';
import { connectProcessor, regenerateKey, updateSettings } from '../domain/dashboard/settings';
import { accountActor } from '../domain/audit/actor';
import { dashboardContext } from './dashboard-auth';
import { objectBody } from '../json/fields';

type ProgramParams = { Params: { programId: string } };
type Body = Record<string, unknown> | undefined;

/**
 * The dashboard page's own JSON routes (spec tag `dashboard`, under /api/dashboard): who is signed in, the
 * account's programs, program creation, settings, key regeneration (owners only) and the processor connection.
 */
export async function dashboardApiRoutes(app: FastifyInstance): Promise<void> {
  const { deps, account, access } = dashboardContext(app);

  app.get('/api/dashboard/session', async (request) => {
    const viewer = await account(request);
    const canCreate = await mayCreateWorkspace(deps().db, app.svc.workspaceCreators, viewer);
    return { data: { account_id: viewer.id, email: viewer.email, can_create_programs: canCreate } };
  });

  app.get('/api/dashboard/programs', async (request) => {
    const viewer = await account(request);
    return { data: { programs: await listAccountPrograms(deps(), viewer.id) } };
  });

  // Same fields and messages as POST /api/v1/cli/init; the key is shown in full only in this response.
  app.post<{ Body: Body }>('/api/dashboard/programs', async (request, reply) => {
    const viewer = await account(request);
    const program = await initProgram(deps(), app.svc.workspaceCreators, viewer, request.body);
    return reply.status(201).send({ data: { program } });
  });

  app.patch<ProgramParams & { Body: Body }>('/api/dashboard/programs/:programId', async (request) => {
    const { account: viewer, program } = await access(request, request.params.programId);
    return { data: { program: await updateSettings(deps(), program, objectBody(request.body), accountActor(viewer)) } };
  });

  app.post<ProgramParams>('/api/dashboard/programs/:programId/regenerate-key', async (request) => {
    const { account: viewer, program, role } = await access(request, request.params.programId);
    return { data: { program: await regenerateKey(deps(), program, role, accountActor(viewer)) } };
  });

  app.put<ProgramParams & { Body: Body }>('/api/dashboard/programs/:programId/processor', async (request) => {
    const { account: viewer, program, role } = await access(request, request.params.programId);
    const body = objectBody(request.body);
    return { data: { processor_account: await connectProcessor(deps(), program, role, body.processor_account, accountActor(viewer)) } };
  });
}
