import type { EventClassification } from './event';
import { asNonNegativeInteger, asRefId, asString, type JsonObject } from './json';
import { readSvcMetadata } from './metadata';

/**
 * `charge.refunded` (spec/openapi.yaml, processorWebhook): a charge refunded in full reverses its sale like
 * `POST /api/v1/track/refund`. **Decision:** a partial refund (`refunded: false`) changes nothing and is ignored
 * (`partial_refund`): refunds are whole in svc, and the refund that completes the charge arrives as another
 * `charge.refunded` with `refunded: true`, which reverses the sale then.
 */
export function classifyChargeRefunded(charge: JsonObject): EventClassification {
  const chargeId = asString(charge.id);
  const amountRefunded = asNonNegativeInteger(charge.amount_refunded);
  if (!chargeId || !amountRefunded) return { kind: 'ignored', reason: 'no_payment' };
  if (charge.refunded !== true) return { kind: 'ignored', reason: 'partial_refund' };
  // The ids a sale of this charge is recorded under (checkout-session.ts, invoice.ts): the PaymentIntent first.
  const ids = [asRefId(charge.payment_intent), chargeId, asRefId(charge.invoice)].filter((id): id is string => id !== undefined);
  return { kind: 'refund', refund: { transactionIds: [...new Set(ids)], metadata: readSvcMetadata(charge.metadata) } };
}
