import type { LeadResponse, SaleResponse } from '@svc/types';
import type { ResponseMeta } from '../http/meta';

/** A response body as the spec defines it, plus `requestId` and `rateLimit`. */
export type SvcResult<Body> = Body & ResponseMeta;

/**
 * Accepts `Given` only when it has no key `Shape` lacks, so a misspelt field in a variable (not only in an
 * object literal) fails to compile instead of being dropped by the service.
 */
export type Exact<Shape, Given extends Shape> = Given & Record<Exclude<keyof Given, keyof Shape>, never>;

/** A sale the service had already recorded under this `transaction_id` (409, spec/rules.md "Errors": "treat as success"). */
export type DuplicateSale = Pick<SaleResponse, 'success' | 'sale_id' | 'transaction_id' | 'message'> & {
  duplicate: true;
  /**
   * Set when the recorded sale differs from this request (another amount or currency under the same
   * `transaction_id`): nothing new was recorded, so `stored` is what counts. A console warning says so once.
   */
  mismatch?: { stored: SaleAmount; sent: SaleAmount };
};

export interface SaleAmount {
  amount_cents: number;
  currency: string;
}

export type SaleResult = SvcResult<(SaleResponse & { duplicate: false }) | DuplicateSale>;

/** `duplicate` is true when a retry found the lead recorded by an attempt that had failed (500 or network). */
export type LeadResult = SvcResult<LeadResponse & { duplicate: boolean }>;
