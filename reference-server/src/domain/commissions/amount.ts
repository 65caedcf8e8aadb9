import type { CommissionType } from '@svc/types';

/**
 * What a sale pays (spec/openapi.yaml `CommissionType`, **Decision**): `percent` pays `rate`% of the amount and
 * `fixed` pays `rate` in the currency's smallest unit, once per customer, on the converting sale; the
 * `recurring_*` types pay the same on every sale. Percent is rounded half up to whole units.
 * A later sale of a non-recurring type pays 0: §Resources/Commission still creates its commission.
 */
export function commissionAmount(type: CommissionType, rate: number, amountCents: number, isConversion: boolean): number {
  const recurring = type === 'recurring_percent' || type === 'recurring_fixed';
  if (!recurring && !isConversion) return 0;
  if (type === 'fixed' || type === 'recurring_fixed') return Math.round(rate);
  // Scale first so that e.g. 12.5% of 4900 is exactly 612.5 before rounding (no float drift below .5).
  const exact = (amountCents * Math.round(rate * 10_000)) / 1_000_000;
  return Math.floor(exact + 0.5);
}
