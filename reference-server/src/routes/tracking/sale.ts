import { currencies, providers, type Currency } from '@svc/types';
import type { FastifyInstance } from 'fastify';
import { fail, failTemplated } from '../../errors/service-error';
import { maxAmountCents } from '../../domain/commissions/limits';
import { recordSale, type SaleInput } from '../../domain/tracking/sale';
import { keyProgramOf, programKeyHook } from '../../http/program-key';
import { objectBody, stringField, testModeOf, type Body } from './body';
import { domainContext } from '../domain-context';

const dayMs = 86_400_000;
/** spec/rules.md "Limits": `occurred_at` not older than 30 days, not more than 5 minutes in the future. */
const maxAgeMs = 30 * dayMs;
const maxAheadMs = 5 * 60_000;
const isoWithOffset = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

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

/** What the body says: everything of the domain's input but the program (from the key) and the source. */
type ParsedSale = Omit<SaleInput, 'program' | 'source' | 'customerEmail'>;

/** The sale body, checked in the order of spec/rules.md "Message catalogue" (400 and 422 track sale); throws the first failure. */
function parseSaleBody(body: Body, now: number): ParsedSale {
  const { test } = testModeOf(body);
  const transactionId = body.transaction_id;
  const validTransaction = typeof transactionId === 'string' && transactionId.length >= 1 && transactionId.length <= 255;
  if (!(validTransaction || (test && transactionId === undefined))) throw fail('saleTransactionRequired');
  const amount = body.amount_cents;
  if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || (amount as number) > maxAmountCents) throw fail('saleAmountInvalid');
  const sent = body.currency ?? 'USD';
  // Any case, stored upper-case: Stripe and most processors send `usd` (spec/openapi.yaml `CurrencyInput`, **Decision**).
  const currency = typeof sent === 'string' ? sent.toUpperCase() : sent;
  if (!currencies.includes(currency as Currency))
    throw failTemplated('saleCurrencyUnsupported', [typeof sent === 'string' ? sent : JSON.stringify(sent)], {
      details: { supported: [...currencies] },
    });
  const occurredAt = body.occurred_at === undefined ? now : parseOccurredAt(body.occurred_at, now);
  if (body.provider !== undefined && !providers.includes(body.provider as (typeof providers)[number]))
    throw failTemplated('saleProviderInvalid', [providers]);
  const ppi = body.provider_payment_id;
  if (ppi !== undefined && (typeof ppi !== 'string' || ppi.length < 1 || ppi.length > 255)) throw fail('saleProviderPaymentIdInvalid');
  if (body.livemode !== undefined && typeof body.livemode !== 'boolean') throw fail('saleLivemodeInvalid');

  const customerKey = stringField(body, 'customer_key');
  const clickId = stringField(body, 'click_id');
  // A test sale with neither is recorded unattributed (spec/rules.md "POST /api/v1/track/sale").
  if (!test && customerKey === undefined && clickId === undefined) throw fail('saleIdentifierRequired');
  return {
    test,
    amountCents: amount as number,
    currency: currency as Currency,
    occurredAt,
    ...(validTransaction ? { transactionId: transactionId } : {}),
    ...(customerKey === undefined ? {} : { customerKey }),
    ...(clickId === undefined ? {} : { clickId }),
    ...(body.provider === undefined ? {} : { provider: body.provider as string }),
    ...(ppi === undefined ? {} : { providerPaymentId: ppi }),
    ...(body.livemode === undefined ? {} : { livemode: body.livemode }),
  };
}

/** ISO 8601 with a UTC offset, a real calendar date, within the spec/rules.md "Limits" bounds; epoch ms. */
export function parseOccurredAt(value: unknown, now: number): number {
  const invalid = () => fail('saleOccurredAtInvalid');
  if (typeof value !== 'string') throw invalid();
  const m = isoWithOffset.exec(value);
  if (!m) throw invalid();
  const field = (i: number) => Number(m[i] ?? 0);
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 7, 8].map(field) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // A real calendar date (no 30 February) and real clock and offset fields.
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  const ms = Date.parse(value);
  if (!real || Number.isNaN(ms)) throw invalid();
  if (ms < now - maxAgeMs || ms > now + maxAheadMs) throw invalid();
  return ms;
}
