import type { FastifyInstance } from 'fastify';
import { recordLead } from '../../domain/tracking/lead';
import { fail } from '../../errors/service-error';
import { checkRotation, findProgramByKey } from '../../http/program-key';
import { parseBearer } from '../../domain/programs/keys';
import type { Program } from '../../store/schema';
import { objectBody, originOf, stringField, testModeOf } from './body';
import { domainContext } from '../domain-context';

/**
 * POST /api/v1/track/lead. Server mode with a valid Bearer key; browser mode with no header or an empty token
 * after `Bearer ` (a header that is not Bearer at all is not a credential either). Only a token that matches
 * no program answers 401.
 */
export async function leadRoute(app: FastifyInstance): Promise<void> {
  app.post('/api/v1/track/lead', { config: { rateLimit: 'lead', failure: 'leadFailed', acceptsText: true } }, async (request) => {
    const bearer = parseBearer(request.headers.authorization);
    let keyProgram: Program | undefined;
    if (bearer.kind === 'token') {
      keyProgram = await findProgramByKey(app.svc.store, bearer.token);
      if (!keyProgram) throw fail('authInvalidToken');
      checkRotation(request, keyProgram, app.svc.clock);
    }
    const body = objectBody(request.body);
    const clickId = stringField(body, 'click_id');
    const customerKey = stringField(body, 'customer_key');
    const email = stringField(body, 'email');
    const origin = originOf(request.headers);
    const result = await recordLead(domainContext(app, request), {
      mode: testModeOf(body),
      ...(keyProgram ? { keyProgram } : {}),
      ...(clickId === undefined ? {} : { clickId }),
      ...(customerKey === undefined ? {} : { customerKey }),
      ...(email === undefined ? {} : { email }),
      ...(origin === undefined ? {} : { origin }),
      ip: request.ip,
    });
    // spec/openapi.yaml `LeadResponse` **Decision**: whether a partner was credited, so a lost click is seen at once.
    const attribution = result.partnerId === null ? { attributed: false } : { attributed: true, partner_id: result.partnerId };
    return result.provisional ? { success: true, provisional: true, ...attribution } : { success: true, ...attribution };
  });
}
