import type { RiskEvent } from '@svc/types';
import type { RiskEventRow } from '../../store/schema';

/** A risk event on the wire (`RiskEvent`). */
export function riskEventView(row: RiskEventRow): RiskEvent {
  return {
    id: Number(row.id),
    at: new Date(Number(row.at)).toISOString(),
    partner_id: Number(row.partner_id),
    kind: row.kind,
    subject: { type: row.subject_type, id: row.subject_id },
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}
