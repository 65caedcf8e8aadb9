import type { CommissionType, Currency } from '@svc/types';
import type { Kysely } from 'kysely';
import { ServiceError, fail } from '../../errors/service-error';
import { insertCommission } from '../../store/commissions';
import { findPartnerCached, partnerSuspendedNow } from '../../store/partners';
import type { Database, Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { rateWithinCap } from './limits';
import { termsInForce } from '../partners/terms';
import { holdsCommission } from '../risk/kinds';

const dayMs = 86_400_000;

export interface CommissionInput {
  program: Program;
  saleId: number;
  partnerId: number;
  amountCents: number;
  currency: Currency;
  /** The sale was recorded as the customer's conversion (percent and fixed pay only then). */
  isConversion: boolean;
  /** The risk kinds flagged on the sale's customer (`customers.risk_kinds`). */
  customerRiskKinds?: string | null;
}

/**
 * Creates the commission of a stored, attributed, real sale — a step of its own after the sale is stored
 * (spec/rules.md "States and transitions": "Sale recorded, no commission"). Any failure here answers
 * `Failed to create commission`, except a partner that does not exist (`partnerId required to create commission`).
 * Every such sale gets one (spec/rules.md "Resources/Commission"), with amount 0 when it pays nothing. `db` is the sale's transaction.
 */
export async function createCommission(
  deps: DomainContext,
  input: CommissionInput,
  db: Kysely<Database> = deps.db,
): Promise<{ id: number; amountCents: number }> {
  try {
    deps.faults.check('commission');
    // spec/rules.md "Message catalogue": the customer names a partner that is not there (internal inconsistency).
    const partner = await findPartnerCached(deps.db, db, input.partnerId);
    if (!partner) throw fail('salePartnerRequired');
    // The partner's own terms when the merchant set them, else the program's: the cache is emptied by any write to
    // partners, so a sale recorded after a terms change pays the new terms.
    const { commission_type: type, commission_rate: rate } = termsInForce(partner, input.program);
    // The caps (limits.ts) keep every commission exact; a rate stored before them must not store a rounded,
    // infinite or null amount, so its sale takes the documented `Failed to create commission` path.
    if (!rateWithinCap(type, rate)) throw new Error(`commission_rate ${rate} is above the cap`);
    const amountCents = commissionAmount(type, rate, input.amountCents, input.isConversion);
    if (!Number.isSafeInteger(amountCents)) throw new Error(`commission ${amountCents} is not a safe integer`);
    // A suspended partner's new commissions wait for the merchant (released when the partner is reactivated). The
    // cached status may predate a reactivation, so a hold is confirmed on the row itself (rare: suspended partners).
    const held = partner.status === 'suspended' && (await partnerSuspendedNow(db, partner.id));
    // A risk signal of a kind the program holds on, on the customer or the partner: waits for an owner's decision
    // (domain/risk/kinds.ts). Both lists come with rows already read: no read of its own.
    const risky = holdsCommission(input.program, input.customerRiskKinds, partner.risk_kinds);
    const holdReason = held ? ('partner_suspended' as const) : risky ? ('risk' as const) : undefined;
    const now = deps.clock.now();
    const id = await insertCommission(db, {
      ...(holdReason ? { holdReason } : {}),
      saleId: input.saleId,
      programId: input.program.id,
      partnerId: input.partnerId,
      amountCents,
      currency: input.currency,
      now,
      // The program's hold period (the refund window): pending until then, due after, on the server clock.
      dueAt: now + Number(input.program.commission_hold_days) * dayMs,
    });
    return { id, amountCents };
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw fail('commissionFailed', { cause: error });
  }
}

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
