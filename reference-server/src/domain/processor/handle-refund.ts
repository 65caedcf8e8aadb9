import type { WebhookResponse } from '@svc/types';
import { findProcessorEvent, rememberProcessorEvent } from '../../store/processor-events';
import { findProgramById } from '../../store/programs';
import { findSaleByTransactionId, findSaleInProgram } from '../../store/sales';
import type { Program, Sale } from '../../store/schema';
import type { DomainContext } from '../context';
import { recordRefund } from '../tracking/refund';
import type { ProcessorEventEnvelope, ProcessorRefund } from './event';
import { programOfEvent } from './program-of-event';

/**
 * A full refund (`charge.refunded`): reverses the sale it refunds through `POST /api/v1/track/refund`'s own path
 * (`recordRefund`: sale refunded, commission reversed, metrics, `sale.refunded` webhook; idempotent), noted with the
 * Stripe event that did it. A sale refunded before answers `duplicate`; no sale answers `ignored`
 * (`sale_not_found`) and is not remembered. Its redelivery answers `duplicate`.
 */
export async function handleRefund(deps: DomainContext, event: ProcessorEventEnvelope, refund: ProcessorRefund): Promise<WebhookResponse> {
  const found = await refundedSale(deps, event.account, refund);
  if (await findProcessorEvent(deps.db, event.id)) {
    return { received: true, outcome: 'duplicate', ...(found ? { sale_id: found.sale.id } : {}) };
  }
  if (!found) return { received: true, outcome: 'ignored', reason: 'sale_not_found' };

  const result = await recordRefund(deps, {
    program: found.program,
    transactionId: found.sale.processor_event_id,
    reason: 'refund',
    note: `Stripe ${event.type} ${event.id}`,
  });
  const outcome = result.alreadyRefunded ? 'duplicate' : 'recorded';
  await rememberProcessorEvent(deps.db, {
    eventId: event.id,
    programId: found.program.id,
    type: event.type,
    outcome,
    now: deps.clock.now(),
  });
  return { received: true, outcome, sale_id: result.saleId };
}

/**
 * The sale a refund is for, by the ids its payment's sale is recorded under. A Connect event looks only in the
 * program bound to its account. The operator's own event looks among all sales (transaction ids are unique
 * globally), and only the one its trusted `program_id`, when present, names.
 */
async function refundedSale(
  deps: DomainContext,
  account: string | undefined,
  refund: ProcessorRefund,
): Promise<{ program: Program; sale: Sale } | undefined> {
  const bound = account === undefined ? undefined : await programOfEvent(deps, account, refund.metadata.programId);
  for (const transactionId of refund.transactionIds) {
    const programId = bound?.id ?? (await findSaleByTransactionId(deps.db, transactionId))?.program_id;
    if (programId === undefined) continue;
    if (!bound && refund.metadata.programId !== undefined && refund.metadata.programId !== String(programId)) continue;
    const sale = await findSaleInProgram(deps.db, programId, transactionId);
    const program = bound ?? (await findProgramById(deps.db, programId));
    if (sale && program) return { program, sale };
  }
  return undefined;
}
