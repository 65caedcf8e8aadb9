import type { FastifyInstance } from 'fastify';
import { recordSale } from '../../domain/tracking/sale';
import { keyProgramOf, programKeyHook } from '../../http/program-key';
import { objectBody } from './body';
import { domainContext } from '../domain-context';
import { parseSaleBody } from './sale-body';

/** POST /api/v1/track/sale (Bearer program key; server only). Errors carry `error.code`. */
export async function saleRoute(app: FastifyInstance): Promise<void> {
  const config = { rateLimit: 'money', failure: 'saleFailed', errorCodes: true } as const;
  app.post('/api/v1/track/sale', { config, onRequest: programKeyHook(app, 'sale') }, async (request) => {
    const program = keyProgramOf(request);
    const sale = parseSaleBody(objectBody(request.body), app.svc.clock.now());
    const result = await recordSale(domainContext(app, request), { ...sale, program, source: 'api' });
    return {
      success: true,
      sale_id: result.saleId,
      commission_id: result.commissionId,
      message: result.message,
      transaction_id: result.transactionId,
    };
  });
}
