import type { CommissionType } from '@svc/types';

/**
 * What a sale pays (spec/openapi.yaml `CommissionType`, **Decision**): `percent` pays `rate`% of the amount and
 * `fixed` pays `rate` in the currency's smallest unit, once per customer, on the converting sale; the
 * `recurring_*` types pay the same on every sale. Percent is rounded half up to whole units.
 * A later sale of a non-recurring type pays 0: spec/rules.md "Resources/Commission" still creates its commission.
 */
export function commissionAmount(type: CommissionType, rate: number, amountCents: number, isConversion: boolean): number {
  const recurring = type === 'recurring_percent' || type === 'recurring_fixed';
  if (!recurring && !isConversion) return 0;
  if (type === 'fixed' || type === 'recurring_fixed') return Math.round(rate);
  // In integers (rate to 1/10,000 %), so rounding half up is exact at any amount up to the cap.
  const scaled = BigInt(amountCents) * BigInt(Math.round(rate * 10_000));
  return Number((scaled + 500_000n) / 1_000_000n);
}
