import { domainContext } from './domain-context';
import type { FastifyInstance } from 'fastify';
import { programKeyActor } from '../domain/audit/actor';
import { positiveId } from '../domain/partners/fields';
import { createLink, listProgramLinks, setProgramLinkEnabled } from '../domain/partners/links';
import { changePartner, createPartner, listPartnerSummaries } from '../domain/partners/partners';
import { keyProgramOf, programKeyHook } from '../http/program-key';
import { objectBody } from '../json/fields';

type Body = Record<string, unknown> | undefined;

/**
 * Partners and referral links for automation (spec tag `partners`): the Bearer program key, the platform
 * envelope, the CLI routes' 401 messages and rate limit, and the same domain rules as the dashboard routes.
 */
export async function partnerApiRoutes(app: FastifyInstance): Promise<void> {
  const deps = () => domainContext(app);
  const options = { config: { rateLimit: 'cli' as const }, onRequest: programKeyHook(app, 'cli') };

  app.post<{ Body: Body }>('/api/v1/partners', options, async (request, reply) => {
    return reply
      .status(201)
      .send({ data: await createPartner(deps(), keyProgramOf(request), objectBody(request.body), programKeyActor(keyProgramOf(request))) });
  });

  app.get('/api/v1/partners', options, async (request) => {
    return { data: { partners: await listPartnerSummaries(deps(), keyProgramOf(request)) } };
  });

  app.patch<{ Params: { partnerId: string }; Body: Body }>('/api/v1/partners/:partnerId', options, async (request) => {
    const partnerId = positiveId(request.params.partnerId, 'partnerIdInvalid');
    return {
      data: await changePartner(deps(), keyProgramOf(request), partnerId, objectBody(request.body), programKeyActor(keyProgramOf(request))),
    };
  });

  app.post<{ Body: Body }>('/api/v1/links', options, async (request, reply) => {
    const program = keyProgramOf(request);
    return reply.status(201).send({ data: await createLink(deps(), program, objectBody(request.body), programKeyActor(program)) });
  });

  app.get<{ Querystring: Record<string, unknown> }>('/api/v1/links', options, async (request) => {
    return { data: { links: await listProgramLinks(deps(), keyProgramOf(request), request.query.partner_id) } };
  });

  app.patch<{ Params: { short_link: string }; Body: Body }>('/api/v1/links/:short_link', options, async (request) => {
    const program = keyProgramOf(request);
    const which = { shortLink: request.params.short_link };
    return { data: await setProgramLinkEnabled(deps(), program, which, objectBody(request.body), programKeyActor(program)) };
  });
}
