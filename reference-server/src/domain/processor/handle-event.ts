import type { WebhookResponse } from '@svc/types';
import { fail } from '../../errors/service-error';
import { findProcessorEvent, rememberProcessorEvent } from '../../store/processor-events';
import { findProgramByProcessorAccount } from '../../store/processor-connections';
import { findSaleByTransactionId } from '../../store/sales';
import type { DomainDeps } from '../deps';
import { attributeProcessorPayment } from './attribute-payment';
import { classifyEvent, type ProcessorEventEnvelope } from './event';

/**
 * One verified processor event (§Events/Inbound; spec/openapi.yaml processorWebhook): ignored events change
 * nothing; a payment is attributed through the sale path; a redelivery records nothing new. Only a handled
 * payment is remembered, and only once handled: a failure (500) leaves it for the processor's redelivery.
 */
export async function handleProcessorEvent(deps: DomainDeps, event: ProcessorEventEnvelope): Promise<WebhookResponse> {
  const classified = classifyEvent(event);
  if (classified.kind === 'ignored') return { received: true, outcome: 'ignored', reason: classified.reason };
  const { payment } = classified;

  const program = event.account ? await findProgramByProcessorAccount(deps.db, event.account) : undefined;
  if (!program) throw fail('webhookUnknownAccount');
  if (payment.metadata.programId !== undefined && payment.metadata.programId !== String(program.id)) {
    throw fail('webhookProgramMismatch');
  }

  if (await findProcessorEvent(deps.db, event.id)) {
    // The sale id only when it is this program's: another program's is not told (as on the sale endpoint's 409).
    const sale = await findSaleByTransactionId(deps.db, payment.transactionId);
    return { received: true, outcome: 'duplicate', ...(sale?.program_id === program.id ? { sale_id: sale.id } : {}) };
  }

  const result = await attributeProcessorPayment(deps, program, payment, {
    livemode: event.livemode,
    occurredAt: paymentTime(event.createdMs, deps.clock.now()),
  });
  await rememberProcessorEvent(deps.db, {
    eventId: event.id,
    programId: program.id,
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
