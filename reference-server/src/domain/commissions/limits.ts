import type { CommissionType } from '@svc/types';

/**
 * Upper bounds on money (spec/openapi.yaml `SaleRequest.amount_cents` and `commission_rate`, **Decision**): every
 * amount, commission and rate stays far inside the integers a JavaScript number holds exactly (2^53), so no stored
 * commission is ever rounded, infinite or null.
 */
export const maxAmountCents = 1_000_000_000_000;
export const maxPercentRate = 100;

/** `percent` types pay at most the whole amount; `fixed` types at most the amount cap. */
export function rateWithinCap(type: CommissionType, rate: number): boolean {
  const percent = type === 'percent' || type === 'recurring_percent';
  return rate <= (percent ? maxPercentRate : maxAmountCents);
}
