import type { WebhookResponse } from '@svc/types';
import type { DomainContext } from '../context';
import { classifyEvent, type ProcessorEventEnvelope } from './event';
import { handlePayment } from './handle-payment';
import { handleRefund } from './handle-refund';

/**
 * One verified processor event (spec/rules.md "Events/Inbound"; spec/openapi.yaml processorWebhook): ignored events change
 * nothing; a payment is attributed through the sale path, a full refund reverses its sale through the refund path.
 */
export async function handleProcessorEvent(deps: DomainContext, event: ProcessorEventEnvelope): Promise<WebhookResponse> {
  const classified = classifyEvent(event);
  switch (classified.kind) {
    case 'ignored':
      return { received: true, outcome: 'ignored', reason: classified.reason };
    case 'payment':
      return handlePayment(deps, event, classified.payment);
    case 'refund':
      return handleRefund(deps, event, classified.refund);
  }
}
