import type { FastifyInstance } from 'fastify';
import { cancelInvitation, changeMemberRole, inviteMember, removeMember, teamOf, teamPathId } from '../domain/team/team';
import { objectBody } from '../json/fields';
import { dashboardContext } from './dashboard-auth';

type ProgramParams = { Params: { programId: string } };
type MemberParams = { Params: { programId: string; accountId: string } };
type InvitationParams = { Params: { programId: string; invitationId: string } };
type Body = Record<string, unknown> | undefined;

/**
 * The team of the workspace that holds the program (spec `dashboardTeam` and the routes beside it): any member reads
 * it; owners invite by email, change roles and remove members (domain/team/team.ts).
 */
export async function dashboardTeamRoutes(app: FastifyInstance): Promise<void> {
  const { deps, access } = dashboardContext(app);
  const base = '/api/dashboard/programs/:programId/team';

  app.get<ProgramParams>(base, async (request) => {
    const { program } = await access(request, request.params.programId);
    return { data: await teamOf(deps(), program) };
  });

  app.post<ProgramParams & { Body: Body }>(`${base}/invitations`, async (request, reply) => {
    const { account, role, program } = await access(request, request.params.programId);
    return reply.status(201).send({ data: await inviteMember(deps(), program, { account, role }, objectBody(request.body)) });
  });

  app.delete<InvitationParams>(`${base}/invitations/:invitationId`, async (request, reply) => {
    const { account, role, program } = await access(request, request.params.programId);
    await cancelInvitation(deps(), program, { account, role }, teamPathId(request.params.invitationId, 'invitationId'));
    return reply.status(204).send();
  });

  app.patch<MemberParams & { Body: Body }>(`${base}/members/:accountId`, async (request) => {
    const { account, role, program } = await access(request, request.params.programId);
    const id = teamPathId(request.params.accountId, 'accountId');
    return { data: await changeMemberRole(deps(), program, { account, role }, id, objectBody(request.body)) };
  });

  app.delete<MemberParams>(`${base}/members/:accountId`, async (request, reply) => {
    const { account, role, program } = await access(request, request.params.programId);
    await removeMember(deps(), program, { account, role }, teamPathId(request.params.accountId, 'accountId'));
    return reply.status(204).send();
  });
}
