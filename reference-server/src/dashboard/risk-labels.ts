import type { RiskKind } from '@svc/types';

/** How the dashboard names each risk signal (the filter's options, each event's heading; client/risk.ts too). */
export const riskKindLabels: Record<RiskKind, string> = {
  self_referral: 'Self-referral',
  disposable_email: 'Disposable email',
  click_flood: 'Click flood',
  fast_conversion: 'Fast conversion',
  shared_identity: 'Shared identity',
};
