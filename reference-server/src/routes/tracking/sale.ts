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
    // Added to the parsed body, not spread into a new object: in the server V8 gave every such spread a hidden class
    // of its own, allocated outside the young generation (docs/performance-notes.md, "The hot path, seventh pass").
    const result = await recordSale(domainContext(app, request), Object.assign(sale, { program, source: 'api' as const }));
    return {
      success: true,
      sale_id: result.saleId,
      commission_id: result.commissionId,
      message: result.message,
      transaction_id: result.transactionId,
    };
  });
}
