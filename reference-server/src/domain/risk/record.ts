import type { Kysely } from 'kysely';
import { flagCustomer } from '../../store/customers';
import { flagPartner, insertRiskEvent } from '../../store/risk-events';
import type { Database, RiskEventsTable } from '../../store/schema';
import { queueWebhookEvent } from '../webhooks/events';
import type { RiskKind } from './kinds';
import { riskEventView } from './view';

/** A signal to record: the event, and whose kinds it flags (what a later commission's hold reads). */
export interface RiskSignal {
  kind: RiskKind;
  partnerId: number;
  subject: { type: RiskEventsTable['subject_type']; id: string };
  details: Record<string, unknown>;
  /** The customer or partner the kind is flagged on. */
  flags: { customerId: number } | { partnerId: number };
}

/**
 * Records the signals in `db`, the transaction of the click or lead that raised them: each event, its flag, and
 * `risk.flagged` in the outbox (spec/openapi.yaml, webhooks). Nothing is written when there is none, so traffic
 * without a signal pays nothing here.
 */
export async function recordRiskSignals(db: Kysely<Database>, programId: number, signals: RiskSignal[], now: number): Promise<void> {
  for (const signal of signals) {
    const row = {
      program_id: programId,
      partner_id: signal.partnerId,
      kind: signal.kind,
      subject_type: signal.subject.type,
      subject_id: signal.subject.id,
      details: JSON.stringify(signal.details),
      at: now,
    };
    const id = await insertRiskEvent(db, row);
    if ('customerId' in signal.flags) await flagCustomer(db, signal.flags.customerId, signal.kind);
    else await flagPartner(db, signal.flags.partnerId, signal.kind);
    await queueWebhookEvent(db, {
      programId,
      type: 'risk.flagged',
      at: now,
      data: { program_id: programId, risk_event: riskEventView({ id, ...row }), is_test: false },
    });
  }
}
