import type { FastifyInstance } from 'fastify';
import { recordClick } from '../../domain/tracking/click';
import { fail } from '../../errors/service-error';
import { checkRotation, findProgramByKey } from '../../http/program-key';
import { parseBearer } from '../../domain/programs/keys';
import { objectBody, originOf, stringField, testModeOf } from './body';
import { domainContext } from '../domain-context';

/** POST /api/v1/track/click (no credential; browser-callable). */
export async function clickRoute(app: FastifyInstance): Promise<void> {
  app.post('/api/v1/track/click', { config: { rateLimit: 'click', failure: 'clickFailed', acceptsText: true } }, async (request) => {
    const body = objectBody(request.body);
    const affiliateUrl = stringField(body, 'affiliate_url');
    if (affiliateUrl === undefined) throw fail('clickUrlRequired');
    // A click never needs a key; one is read only for the test-mode program_id check (spec/rules.md "Errors" 403).
    const bearer = parseBearer(request.headers.authorization);
    const keyProgram = bearer.kind === 'token' ? await findProgramByKey(app.svc.store, bearer.token) : undefined;
    // spec/rules.md "Authentication" rule 5 holds for every request with the key: notices before the deadline, 401 after.
    if (keyProgram) checkRotation(request, keyProgram, app.svc.clock);
    const existingClickId = stringField(body, 'click_id');
    const origin = originOf(request.headers);
    const result = await recordClick(domainContext(app, request), {
      affiliateUrl,
      mode: testModeOf(body),
      ...(existingClickId === undefined ? {} : { existingClickId }),
      ...(keyProgram ? { keyProgramId: keyProgram.id } : {}),
      ...(origin === undefined ? {} : { origin }),
      ip: request.ip,
    });
    return { success: true, click_id: result.clickId, cookie_window_days: result.cookieWindowDays };
  });
}
