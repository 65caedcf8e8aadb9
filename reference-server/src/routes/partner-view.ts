import type { FastifyInstance } from 'fastify';
import { partnerViewOf, setOwnLinkEnabled } from '../domain/partner-view/partner-view';
import { answerPartnerInvitation } from '../domain/partner-view/invitations';
import { positiveId } from '../domain/partners/fields';
import { dashboardContext } from './dashboard-auth';
import { objectBody } from '../json/fields';

type Body = Record<string, unknown> | undefined;

/** The partner view (spec tag `partners`): the signed-in account's invitations, own partner records, figures and links. */
export async function partnerViewRoutes(app: FastifyInstance): Promise<void> {
  const { deps, account } = dashboardContext(app);

  app.get('/api/partner', async (request) => {
    const viewer = await account(request);
    return { data: await partnerViewOf(deps(), viewer) };
  });

  for (const answer of ['accept', 'decline'] as const) {
    app.post<{ Params: { partnerId: string } }>(`/api/partner/invitations/:partnerId/${answer}`, async (request) => {
      const viewer = await account(request);
      return { data: await answerPartnerInvitation(deps(), viewer, request.params.partnerId, answer) };
    });
  }

  app.patch<{ Params: { linkId: string }; Body: Body }>('/api/partner/links/:linkId', async (request) => {
    const viewer = await account(request);
    const linkId = positiveId(request.params.linkId, 'linkIdInvalid');
    return { data: await setOwnLinkEnabled(deps(), viewer, linkId, objectBody(request.body)) };
  });
}
