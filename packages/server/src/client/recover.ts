import type { leadStatusCode, SaleRequest } from '@svc/types';
import type { SvcApiError } from '../errors/errors';
import type { DuplicateSale } from './types';

/** `error.details.code` of the 400 `Customer status cannot be updated to lead…` (a literal: the catalogue stays unbundled). */
export const customerStatus: typeof leadStatusCode = 'customer_status';

/**
 * spec/rules.md "Message catalogue" 500 `Lead tracking failed`: "retry may give 400 `Customer status cannot be updated to
 * lead` if the first attempt recorded the lead". Only after such a failure is that 400 a success.
 */
export function recoverLead(error: SvcApiError, afterFailure: boolean): { success: true; duplicate: true } | undefined {
  return afterFailure && error.status === 400 && error.details.code === customerStatus ? { success: true, duplicate: true } : undefined;
}

/**
 * spec/rules.md "Errors" 409: the sale is already recorded under this `transaction_id`; `error.details.sale_id` names it. A 409
 * without it means another program holds the id (spec/openapi.yaml, trackSale): nothing was recorded, so it is
 * thrown, with a one-time hint to use globally unique ids.
 */
export function recoverSale(body: SaleRequest) {
  return (error: SvcApiError): DuplicateSale | undefined => {
    const sale_id = error.details.sale_id;
    if (error.status !== 409) return;
    if (typeof sale_id === 'number') {
      const duplicate: DuplicateSale = {
        success: true,
        duplicate: true,
        sale_id,
        transaction_id: body.transaction_id as string,
        message: error.message,
      };
      // The 409 names what was stored (spec/openapi.yaml, trackSale): a reuse with another amount is made visible.
      const stored = { amount_cents: error.details.amount_cents as number, currency: error.details.currency as string };
      const sent = { amount_cents: body.amount_cents, currency: (body.currency ?? 'USD').toUpperCase() };
      if (stored.currency && (stored.amount_cents !== sent.amount_cents || stored.currency !== sent.currency)) {
        duplicate.mismatch = { stored, sent };
        warned.mismatch ||= (console.warn('[svc] transaction_id reused with another amount: the first sale stands'), true);
      }
      return duplicate;
    }
    warned.foreign ||= (console.warn('[svc] transaction_id of another program: use processor ids'), true);
  };
}

const warned: { foreign?: boolean; mismatch?: boolean } = {};
