import type { FastifyInstance } from 'fastify';
import { recordRefund } from '../../domain/tracking/refund';
import { fail } from '../../errors/service-error';
import { keyProgramOf, programKeyHook } from '../../http/program-key';
import { objectBody, stringField } from './body';
import { domainContext } from '../domain-context';

/** POST /api/v1/track/refund (Bearer program key; an empty token answers `Invalid API token`). */
export async function refundRoute(app: FastifyInstance): Promise<void> {
  const config = { rateLimit: 'money', failure: 'refundFailed', errorCodes: true } as const;
  app.post('/api/v1/track/refund', { config, onRequest: programKeyHook(app, 'refund') }, async (request) => {
    const program = keyProgramOf(request);
    const body = objectBody(request.body);
    const transactionId = stringField(body, 'transaction_id');
    if (transactionId === undefined) throw fail('refundTransactionRequired');
    const reason = body.reason;
    if (reason !== undefined && reason !== 'refund' && reason !== 'chargeback') throw fail('refundReasonInvalid');
    const note = stringField(body, 'refund_reason');
    const result = await recordRefund(domainContext(app, request), {
      program,
      transactionId,
      ...(reason === undefined ? {} : { reason }),
      ...(note === undefined ? {} : { note: note.slice(0, 1000) }),
    });
    return {
      success: true,
      sale_id: result.saleId,
      commission_id: result.commissionId,
      transaction_id: result.transactionId,
      commission_status: result.commissionStatus,
      already_refunded: result.alreadyRefunded,
    };
  });
}
