import type { WebhookResponse } from '@svc/types';
import { findProcessorEvent, rememberProcessorEvent } from '../../store/processor-events';
import { findSaleByTransactionId } from '../../store/sales';
import type { DomainContext } from '../context';
import { attributeProcessorPayment } from './attribute-payment';
import type { ProcessorEventEnvelope, ProcessorPayment } from './event';
import { programOfEvent } from './program-of-event';

/**
 * A payment event: found its program (`programOfEvent`), then attributed through the sale path; a redelivery
 * records nothing new. Only a handled payment is remembered, and only once handled: a failure (500) leaves it for
 * the processor's redelivery.
 */
export async function handlePayment(
  deps: DomainContext,
  event: ProcessorEventEnvelope,
  payment: ProcessorPayment,
): Promise<WebhookResponse> {
  const program = await programOfEvent(deps, event.account, payment.metadata.programId);

  if (await findProcessorEvent(deps.db, event.id)) {
    // The sale id only when it is this program's: another program's is not told (as on the sale endpoint's 409).
    const sale = program ? await findSaleByTransactionId(deps.db, payment.transactionId) : undefined;
    return { received: true, outcome: 'duplicate', ...(sale && sale.program_id === program?.id ? { sale_id: sale.id } : {}) };
  }

  const result: WebhookResponse = program
    ? await attributeProcessorPayment(deps, program, payment, {
        livemode: event.livemode,
        occurredAt: paymentTime(event.createdMs, deps.clock.now()),
      })
    : { received: true, outcome: 'not_attributed', reason: 'no_program' };
  await rememberProcessorEvent(deps.db, {
    eventId: event.id,
    programId: program?.id ?? null,
    type: event.type,
    outcome: result.outcome ?? 'recorded',
    now: deps.clock.now(),
  });
  return result;
}

/** **Decision:** the payment happened when the event was created; a future `created` (clock skew) reads as now. */
function paymentTime(createdMs: number | undefined, now: number): number {
  return createdMs === undefined || createdMs > now ? now : createdMs;
}
