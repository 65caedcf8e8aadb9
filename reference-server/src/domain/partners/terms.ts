import { commissionTypes, type CommissionType } from '@svc/types';
import { fail } from '../../errors/service-error';
import type { Partner, Program } from '../../store/schema';
import { rateWithinCap } from '../commissions/limits';

export interface Terms {
  commission_type: CommissionType;
  commission_rate: number;
}

/**
 * A partner's own terms from a PATCH body: `commission_type` and `commission_rate` together (a type and a positive
 * rate within the caps of limits.ts), or both null to follow the program again. Undefined when neither is sent.
 */
export function partnerTerms(body: Record<string, unknown>): Terms | null | undefined {
  const { commission_type: type, commission_rate: rate } = body;
  if (type === undefined && rate === undefined) return undefined;
  if (type === null && rate === null) return null;
  if (typeof type !== 'string' || !(commissionTypes as readonly string[]).includes(type)) throw fail('partnerTermsInvalid');
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0 || !rateWithinCap(type as CommissionType, rate)) {
    throw fail('partnerTermsInvalid');
  }
  return { commission_type: type as CommissionType, commission_rate: rate };
}

/** The partner's own terms, or null when it follows the program. */
export function ownTerms(partner: Pick<Partner, 'commission_type' | 'commission_rate'>): Terms | null {
  if (partner.commission_type === null || partner.commission_rate === null) return null;
  return { commission_type: partner.commission_type, commission_rate: Number(partner.commission_rate) };
}

/** What the partner's next sale pays: its own terms, else the program's (`source` says which). */
export function termsInForce(
  partner: Pick<Partner, 'commission_type' | 'commission_rate'>,
  program: Pick<Program, 'commission_type' | 'commission_rate'>,
): Terms & { source: 'partner' | 'program' } {
  const own = ownTerms(partner);
  if (own) return { ...own, source: 'partner' };
  return { commission_type: program.commission_type, commission_rate: Number(program.commission_rate), source: 'program' };
}
