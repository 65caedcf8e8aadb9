import type { FastifyInstance } from 'fastify';
import { recordSale } from '../../domain/tracking/sale';
import { requireProgramKey } from '../../http/program-key';
import { objectBody } from './body';
import { domainDeps } from './deps';
import { parseSaleBody } from './sale-body';

/** POST /api/v1/track/sale (Bearer program key; server only). Errors carry `error.code`. */
export async function saleRoute(app: FastifyInstance): Promise<void> {
  app.post('/api/v1/track/sale', { config: { rateLimit: 'money', failure: 'saleFailed', errorCodes: true } }, async (request) => {
    const program = await requireProgramKey(request, app.svc.store, app.svc.clock, 'sale');
    const sale = parseSaleBody(objectBody(request.body), app.svc.clock.now());
    const result = await recordSale(domainDeps(app, request), { ...sale, program, source: 'api' });
    return {
      success: true,
      sale_id: result.saleId,
      commission_id: result.commissionId,
      message: result.message,
      transaction_id: result.transactionId,
    };
  });
}
