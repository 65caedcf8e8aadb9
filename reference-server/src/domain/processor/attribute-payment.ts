import { catalogue, currencies, type Currency, type WebhookResponse } from '@svc/types';
import { ServiceError } from '../../errors/service-error';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { recordSale } from '../tracking/sale';
import type { ProcessorPayment } from './event';
import { settleProvisionalLead } from './settle-lead';

type NotAttributedReason = Extract<
  NonNullable<WebhookResponse['reason']>,
  'no_metadata' | 'customer_not_found' | 'other_program' | 'no_partner' | 'outside_window' | 'unsupported_currency'
>;

/** The sale path's "no usable attribution" refusals, which a webhook answers 200 `not_attributed`. */
const refusals = new Map<string, NotAttributedReason>([
  [catalogue.saleCustomerNotFound.message, 'customer_not_found'],
  [catalogue.saleOtherProgram.message, 'other_program'],
  [catalogue.saleNoRelationship.message, 'no_partner'],
  [catalogue.saleOutsideWindow.message, 'outside_window'],
]);

export interface PaymentContext {
  livemode: boolean;
  /** When the payment happened (epoch ms). */
  occurredAt: number;
}

/**
 * A processor payment of a connected program (spec/rules.md "What the service does", item 7): settles the customer's
 * provisional lead (spec/rules.md "States and transitions"), then records the sale through the sale endpoint's own path —
 * same customer resolution, window check, commission types and metrics — with `source: processor`.
 * A refusal of that path is an answer, not a failure: the processor must not redeliver a payment that can never
 * be attributed, and the next payment is checked again (spec/rules.md "Attribution rules", window check on sale).
 */
export async function attributeProcessorPayment(
  deps: DomainContext,
  program: Program,
  payment: ProcessorPayment,
  context: PaymentContext,
): Promise<WebhookResponse> {
  const { clickId, customerKey } = payment.metadata;
  if (clickId === undefined && customerKey === undefined) return notAttributed('no_metadata');
  await settleProvisionalLead(deps, program, { clickId, customerKey });
  if (!isCurrency(payment.currency)) return notAttributed('unsupported_currency');

  try {
    const sale = await recordSale(deps, {
      program,
      transactionId: payment.transactionId,
      amountCents: payment.amountCents,
      currency: payment.currency,
      ...(customerKey === undefined ? {} : { customerKey }),
      ...(clickId === undefined ? {} : { clickId }),
      ...(payment.customerEmail === undefined ? {} : { customerEmail: payment.customerEmail }),
      occurredAt: context.occurredAt,
      test: false,
      source: 'processor',
      provider: 'stripe',
      providerPaymentId: payment.transactionId,
      livemode: context.livemode,
    });
    return { received: true, outcome: 'recorded', sale_id: sale.saleId };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // spec/rules.md "Errors" 409 "treat as success": the same payment, already counted (e.g. reported to the sale endpoint).
    if (error.code === 'duplicate_transaction') {
      const saleId = error.details.sale_id;
      return { received: true, outcome: 'duplicate', ...(typeof saleId === 'number' ? { sale_id: saleId } : {}) };
    }
    const reason = error.status === 400 ? refusals.get(error.message) : undefined;
    if (reason === undefined) throw error;
    return notAttributed(reason);
  }
}

function notAttributed(reason: NotAttributedReason): WebhookResponse {
  return { received: true, outcome: 'not_attributed', reason };
}

function isCurrency(value: string): value is Currency {
  return (currencies as readonly string[]).includes(value);
}
