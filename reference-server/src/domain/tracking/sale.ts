import type { Currency } from '@svc/types';
import { fail, ServiceError } from '../../errors/service-error';
import { findCustomerByClick, findCustomerByKey, markConverted, saleCustomerRead } from '../../store/customers';
import { behindSavepoint, insertRow, writeTransaction } from '../../store/engine';
import { findSaleByTransactionId, insertSale, saleOfTransactionRead } from '../../store/sales';
import type { Customer, Program } from '../../store/schema';
import { isUniqueViolation } from '../../store/unique-violation';
import { createCommission } from '../commissions/create';
import type { DomainContext } from '../context';
import { countSale } from '../metrics/record';
import { queueWebhookEvent } from '../webhooks/events';
import { findPartnerCached } from '../../store/partners';
import { kindsOf } from '../risk/kinds';
import { recordRiskSignals } from '../risk/record';
import { emailSignals } from '../risk/signals';

export interface SaleInput {
  program: Program;
  /** Required outside test mode (the route checks it); a test sale without one gets `test_txn_<timestamp>`. */
  transactionId?: string;
  amountCents: number;
  currency: Currency;
  customerKey?: string;
  clickId?: string;
  /** When the payment happened (epoch ms); the window check compares against it when no signup was recorded. */
  occurredAt: number;
  test: boolean;
  /** `api` (the sale endpoint) or `processor` (a processor webhook: the same path). */
  source: 'api' | 'processor';
  provider?: string;
  providerPaymentId?: string;
  livemode?: boolean;
  /** The processor customer's email (a processor payment): checked for self-referral and throwaway domains. */
  customerEmail?: string;
}

export interface SaleResult {
  saleId: number;
  /** Null in test mode only (spec/rules.md "What the service does", item 6); every real sale has one (spec/rules.md "Resources/Commission"). */
  commissionId: number | null;
  transactionId: string;
  message: string;
}

/**
 * spec/rules.md "POST /api/v1/track/sale" (and the processor webhook's payments): resolve the customer, check attribution and
 * the window, store the sale (the transaction id is unique by a database constraint), then create the commission,
 * then update metrics. spec/rules.md "States and transitions": a commission failure leaves the sale stored and its transaction id
 * consumed; a metrics failure is logged and changes nothing. So the commission is written in the sale's transaction
 * behind a savepoint: one commit, so a crash never leaves a sale without its commission
 * (test/faults/crash.test.ts), while a failure creating it rolls back to the savepoint only and the sale is still
 * stored (the documented failure path).
 */
export async function recordSale(deps: DomainContext, input: SaleInput): Promise<SaleResult> {
  const { program, test } = input;
  const transactionId = input.transactionId ?? (await testTransactionId(deps));

  const now = deps.clock.now();
  let stored:
    { saleId: number; commission: { id: number; amountCents: number } | null; commissionError?: unknown } | { refused: ServiceError };
  try {
    // Group commit (store/engine/group-commit.ts): resolves once the COMMIT holding this sale returned. The batch reads
    // the sale of the transaction id and the customer for all its sales at once (`BatchRead`, store/engine/batch.ts), and
    // whether the customer is converted with it.
    stored = await writeTransaction(
      deps.db,
      async (trx) => {
        // A refusal (a ServiceError) is decided before the sale writes anything, and answered rather than thrown:
        // the batch goes on without it (a throw runs the batch again request by request). Anything else throws.
        let customer: Customer | undefined;
        try {
          customer = await admit(deps, trx, input, transactionId);
        } catch (error) {
          if (error instanceof ServiceError) return { refused: error };
          throw error;
        }
        const partnerId = customer?.partner_id ?? null;
        const saleId = await insertSale(trx, {
          program_id: program.id,
          customer_id: customer?.id ?? null,
          partner_id: partnerId,
          processor_event_id: transactionId,
          amount_cents: input.amountCents,
          currency: input.currency,
          is_test: test ? 1 : 0,
          provider: input.provider ?? null,
          provider_payment_id: input.providerPaymentId ?? null,
          livemode: input.livemode === undefined ? null : input.livemode ? 1 : 0,
          source: input.source,
          occurred_at: input.occurredAt,
          created_at: now,
          refunded_at: null,
          refund_reason: null,
          refund_note: null,
        });
        const isConversion = customer ? await markConverted(trx, customer, input.occurredAt, now) : false;
        await insertRow(trx, 'events', {
          program_id: program.id,
          type: 'sale',
          is_test: test ? 1 : 0,
          occurred_at: input.occurredAt,
          partner_id: partnerId,
          click_id: customer?.click_id ?? null,
          customer_key: customer?.customer_key ?? input.customerKey ?? null,
          sale_id: saleId,
          amount_cents: input.amountCents,
          currency: input.currency,
          source: input.source,
        });
        // Outbound webhooks: the events commit with the sale and its commission, or not at all.
        const customerKey = customer?.customer_key ?? input.customerKey ?? null;
        await queueWebhookEvent(trx, {
          programId: program.id,
          type: 'sale.created',
          at: now,
          // Built only when an endpoint is subscribed (most programs have none).
          data: () => ({
            program_id: program.id,
            sale_id: saleId,
            transaction_id: transactionId,
            customer_key: customerKey,
            click_id: customer?.click_id ?? null,
            partner_id: partnerId,
            amount_cents: input.amountCents,
            currency: input.currency,
            source: input.source,
            occurred_at: new Date(input.occurredAt).toISOString(),
            is_test: test,
          }),
        });
        // The processor's customer email raises its signals before the commission, so a hold applies to it.
        const riskKinds =
          test || partnerId === null
            ? null
            : await processorEmailSignals(deps, trx, { program, customer: customer!, partnerId, input, now });
        const result = test || partnerId === null ? { saleId, commission: null } : await commissionBehindSavepoint();
        // The sale is stored whatever happened to its commission, so it is counted either way.
        await countSaleSafely(deps, trx, { program, partnerId, input, commissionCents: result.commission?.amountCents ?? 0, now });
        return result;

        async function commissionBehindSavepoint() {
          const created = await behindSavepoint(trx, 'commission', async () => {
            const commission = await createCommission(
              deps,
              {
                program,
                saleId,
                partnerId: partnerId!,
                amountCents: input.amountCents,
                currency: input.currency,
                isConversion,
                customerRiskKinds: riskKinds,
              },
              trx,
            );
            await queueCommissionEvent(trx, { program, saleId, transactionId, partnerId: partnerId!, customerKey, input, commission, now });
            return commission;
          });
          return created.ok ? { saleId, commission: created.value } : { saleId, commission: null, commissionError: created.error };
        }
      },
      [saleOfTransactionRead(transactionId), ...saleCustomerRead(program.id, test, input.customerKey, input.clickId)],
    );
  } catch (error) {
    // spec/rules.md "Errors" 409: keyed on processor_event_id, global scope; the constraint decides between racing requests.
    // (Caught outside the transaction: on PostgreSQL a failed statement aborts it.)
    if (isUniqueViolation(error)) refuseDuplicate(await findSaleByTransactionId(deps.db, transactionId), program.id);
    throw error;
  }

  if ('refused' in stored) throw stored.refused;
  const commission = stored.commission;
  if ('commissionError' in stored) throw stored.commissionError;
  return {
    saleId: stored.saleId,
    commissionId: commission?.id ?? null,
    transactionId,
    message: test ? 'Test sale recorded (no commission)' : 'Sale recorded',
  };
}

/**
 * The self-referral and disposable-email signals of a processor payment's customer email (domain/risk/signals.ts),
 * in the sale's batch: the partner from the lookup cache, nothing read when the payment names no email. A kind the
 * customer already carries raises nothing again (every renewal would). Answers the customer's kinds, with the new.
 */
async function processorEmailSignals(
  deps: DomainContext,
  trx: DomainContext['db'],
  s: { program: Program; customer: Customer; partnerId: number; input: SaleInput; now: number },
): Promise<string | null> {
  const known = s.customer.risk_kinds;
  if (s.input.customerEmail === undefined) return known;
  const partner = await findPartnerCached(deps.db, trx, s.partnerId);
  if (!partner) return known;
  const signals = emailSignals(s.customer, s.customer.customer_key, partner, s.input.customerEmail).filter(
    (signal) => !kindsOf(known).includes(signal.kind),
  );
  await recordRiskSignals(trx, s.program.id, signals, s.now);
  return [known, ...signals.map((signal) => signal.kind)].filter(Boolean).join(',') || null;
}

/**
 * `commission.created`, behind the commission's savepoint: rolled back with it. Failing to queue it is failing to
 * create the commission (the documented `Failed to create commission` path).
 */
async function queueCommissionEvent(
  trx: DomainContext['db'],
  c: {
    program: Program;
    saleId: number;
    transactionId: string;
    partnerId: number;
    customerKey: string | null;
    input: SaleInput;
    commission: { id: number; amountCents: number };
    now: number;
  },
): Promise<void> {
  try {
    await queueWebhookEvent(trx, {
      programId: c.program.id,
      type: 'commission.created',
      at: c.now,
      data: () => ({
        program_id: c.program.id,
        commission_id: c.commission.id,
        sale_id: c.saleId,
        transaction_id: c.transactionId,
        partner_id: c.partnerId,
        customer_key: c.customerKey,
        amount_cents: c.commission.amountCents,
        sale_amount_cents: c.input.amountCents,
        currency: c.input.currency,
        is_test: false,
      }),
    });
  } catch (error) {
    throw fail('commissionFailed', { cause: error });
  }
}

/**
 * Whether the sale may be recorded, in its batch `trx`: its transaction id is free, the test-control `sale` fault
 * is off, its customer is found (the one returned) and attributed, and the payment is within the window. Throws the
 * refusal otherwise, in this order (spec/rules.md "POST /api/v1/track/sale").
 */
async function admit(
  deps: DomainContext,
  trx: DomainContext['db'],
  input: SaleInput,
  transactionId: string,
): Promise<Customer | undefined> {
  const { program, test } = input;
  refuseDuplicate(await findSaleByTransactionId(trx, transactionId), program.id);
  deps.faults.check('sale');
  const customer = await resolveCustomer(trx, input);
  if (customer && customer.partner_id === null && !test) throw fail('saleNoRelationship');
  if (customer && !saleWithinWindow(customer, input.occurredAt, program.attribution_window_days)) {
    throw fail('saleOutsideWindow');
  }
  return customer;
}

/**
 * 409 when the transaction id is already taken (`sale`, the one recorded under it): with the recorded sale's id,
 * amount and currency when it is this program's (test or real), and nothing of the other program when it is not
 * (spec/openapi.yaml, trackSale 409 **Decision**).
 */
function refuseDuplicate(
  sale: { id: number; program_id: number; amount_cents: number; currency: Currency } | undefined,
  programId: number,
): void {
  if (sale === undefined) return;
  if (sale.program_id !== programId) throw fail('saleDuplicateElsewhere');
  // What was stored, so a reused id with another amount is visible (spec/openapi.yaml, trackSale 409 **Decision**).
  throw fail('saleDuplicate', { details: { sale_id: sale.id, amount_cents: sale.amount_cents, currency: sale.currency } });
}

/** spec/rules.md "POST /api/v1/track/sale": a test sale without `transaction_id` gets `test_txn_<timestamp>` (a free one). */
async function testTransactionId(deps: DomainContext): Promise<string> {
  let at = deps.clock.now();
  while ((await findSaleByTransactionId(deps.db, `test_txn_${at}`)) !== undefined) at += 1;
  return `test_txn_${at}`;
}

/**
 * The customer by `customer_key`, else by `click_id`, in the sale's world (test sales see test records only).
 * Not found: 400, except in test mode where the sale is recorded unattributed. A key is looked up in this program
 * only: a key known only to another program answers as one known nowhere (customer keys are guessable, so a
 * different answer told whether another program has that customer). Click ids are unguessable, so a click of
 * another program keeps the spec's `No affiliate attribution … in this program`.
 */
async function resolveCustomer(db: DomainContext['db'], input: SaleInput): Promise<Customer | undefined> {
  const { program, test } = input;
  let elsewhere = false;
  if (input.customerKey !== undefined) {
    const byKey = await findCustomerByKey(db, program.id, test, input.customerKey);
    if (byKey) return byKey;
  }
  if (input.clickId !== undefined) {
    const byClick = await findCustomerByClick(db, input.clickId);
    if (byClick && byClick.is_test === (test ? 1 : 0)) {
      if (byClick.program_id === program.id) return byClick;
      elsewhere = true;
    }
  }
  if (test) return undefined;
  throw fail(elsewhere ? 'saleOtherProgram' : 'saleCustomerNotFound');
}

/**
 * The sale's metrics: held in memory by the store and written with the sale's COMMIT (store/engine/metrics.ts,
 * `MetricDeltas`), so counting cannot fail halfway; a failure here (test control's `metrics` fault) counts nothing,
 * is logged and changes nothing else (spec/rules.md "POST /api/v1/track/sale").
 */
async function countSaleSafely(
  deps: DomainContext,
  trx: DomainContext['db'],
  s: { program: Program; partnerId: number | null; input: SaleInput; commissionCents: number; now: number },
): Promise<void> {
  try {
    deps.faults.check('metrics');
    await countSale(trx, {
      programId: s.program.id,
      partnerId: s.partnerId,
      isTest: s.input.test,
      source: s.input.source,
      amountCents: s.input.amountCents,
      currency: s.input.currency,
      commissionCents: s.commissionCents,
      occurredAt: s.input.occurredAt,
      now: s.now,
    });
  } catch (error) {
    // spec/rules.md "POST /api/v1/track/sale": metric failures after the sale and commission are stored are logged only.
    deps.log?.error({ err: error, program_id: s.program.id }, 'sale metrics update failed');
  }
}

const dayMs = 86_400_000;

/**
 * spec/rules.md "Attribution rules", window check on sale: the click must be at most the window older than the customer's
 * signup, or than the payment when no signup was recorded. Not checked once a conversion is recorded.
 */
export function saleWithinWindow(
  customer: { clicked_at: number | null; lead_at: number | null; converted_at: number | null },
  occurredAt: number,
  windowDays: number,
): boolean {
  if (customer.converted_at !== null || customer.clicked_at === null) return true;
  const reference = customer.lead_at ?? occurredAt;
  return reference - customer.clicked_at <= windowDays * dayMs;
}
