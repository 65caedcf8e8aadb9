import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { findLinkByShortLink, insertLink, setLinkEnabled } from '../../../store/links';
import { findPartnerById, insertPartner } from '../../../store/partners';
import { findProgramById } from '../../../store/programs';
import { isUniqueViolation } from '../../../store/unique-violation';
import { invalid, notFound, nullableInteger, objectBody, optionalString, requiredInteger } from './fields';

/** Test-control: partners, referral links, and turning a link off and on (spec/rules.md "Resources/Referral link"). */
export async function partnerLinkControlRoutes(app: FastifyInstance): Promise<void> {
  const db = () => app.svc.store.db;

  app.post('/_test/partners', async (request, reply) => {
    const body = objectBody(request.body, ['program_id', 'name']);
    const programId = requiredInteger(body, 'program_id');
    if (!(await findProgramById(db(), programId))) throw notFound(`Program ${programId} not found`);
    const id = await insertPartner(db(), { programId, name: optionalString(body, 'name') ?? 'Test partner', now: app.svc.clock.now() });
    return reply.status(201).send({ id });
  });

  // `program_id` or `partner_id` may be null to build a broken link (`Invalid referral link configuration`).
  // Absent, the program is the partner's and the partner is a new one of the program.
  app.post('/_test/links', async (request, reply) => {
    const body = objectBody(request.body, ['program_id', 'partner_id', 'short_link']);
    const now = app.svc.clock.now();
    let programId = nullableInteger(body, 'program_id');
    let partnerId = nullableInteger(body, 'partner_id');
    if (partnerId !== undefined && partnerId !== null) {
      const partner = await findPartnerById(db(), partnerId);
      if (!partner) throw notFound(`Partner ${partnerId} not found`);
      if (programId === undefined) programId = partner.program_id;
    }
    if (programId !== undefined && programId !== null && !(await findProgramById(db(), programId))) {
      throw notFound(`Program ${programId} not found`);
    }
    if (programId === undefined) throw invalid('program_id or partner_id is required');
    if (partnerId === undefined) {
      if (programId === null) throw invalid('partner_id is required when program_id is null');
      partnerId = await insertPartner(db(), { programId, name: 'Test partner', now });
    }
    const shortLink = optionalString(body, 'short_link') ?? `lnk_${randomBytes(6).toString('hex')}`;
    if (shortLink.length > 200) throw invalid('short_link must be at most 200 characters');
    try {
      const id = await insertLink(db(), { programId, partnerId, shortLink, now });
      return reply.status(201).send({ id, short_link: shortLink });
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid(`short_link ${shortLink} already exists`);
      throw error;
    }
  });

  app.patch<{ Params: { short_link: string } }>('/_test/links/:short_link', async (request) => {
    const body = objectBody(request.body, ['enabled']);
    if (typeof body.enabled !== 'boolean') throw invalid('enabled is required and must be a boolean');
    const shortLink = request.params.short_link;
    if (!(await findLinkByShortLink(db(), shortLink))) throw notFound(`Link ${shortLink} not found`);
    await setLinkEnabled(db(), shortLink, body.enabled);
    return { short_link: shortLink, enabled: body.enabled };
  });
}
