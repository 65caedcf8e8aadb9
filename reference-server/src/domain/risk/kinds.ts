import type { RiskEventsTable } from '../../store/schema';

/** The risk signals (spec `RiskKind`, in its order). */
export type RiskKind = RiskEventsTable['kind'];
export const riskKinds = [
  'self_referral',
  'disposable_email',
  'click_flood',
  'fast_conversion',
  'shared_identity',
] as const satisfies readonly RiskKind[];

/** The kinds of a stored comma-separated list (`risk_kinds`, `risk_hold_kinds`); unknown words are ignored. */
export function kindsOf(stored: string | null | undefined): RiskKind[] {
  if (!stored) return [];
  const words = stored.split(',');
  return riskKinds.filter((kind) => words.includes(kind));
}

/** Whether any kind flagged on the customer or the partner is one the program holds commissions on. */
export function holdsCommission(program: { risk_hold_kinds: string }, ...flagged: (string | null | undefined)[]): boolean {
  const hold = kindsOf(program.risk_hold_kinds);
  return hold.length > 0 && flagged.some((stored) => kindsOf(stored).some((kind) => hold.includes(kind)));
}
