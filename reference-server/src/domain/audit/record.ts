import type { Kysely } from 'kysely';
import { insertAuditEntry } from '../../store/audit-log';
import type { Database } from '../../store/schema';
import type { Actor } from './actor';

/**
 * The money and access actions the audit log records (spec `AuditAction`). Closed: a new action is added here and in
 * the spec together.
 */
export const auditActions = [
  'commission.approved',
  'commission.declined',
  'commission.released',
  'partner.created',
  'partner.updated',
  'partner.invitation_answered',
  'link.created',
  'link.updated',
  'program.updated',
  'program.key_regenerated',
  'processor.connected',
  'processor.disconnected',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'payout.created',
  'partner.terms_changed',
  'adjustment.created',
  'team.invited',
  'team.invitation_cancelled',
  'team.joined',
  'team.role_changed',
  'team.removed',
  'partner.banned',
] as const;
export type AuditAction = (typeof auditActions)[number];

export interface AuditEntry {
  programId: number;
  actor: Actor;
  action: AuditAction;
  /** `kind:id` of what was acted on: `commission:12`, `partner:3`, `program:1`. */
  target: string;
  /** What changed: old and new values, amounts. */
  details: Record<string, unknown>;
  reason?: string | null;
  now: number;
}

/**
 * Appends an audit entry in `db`, the transaction of the change it records: an action that commits is in the log,
 * one that rolls back is not. Entries are never updated or deleted.
 */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, {
    program_id: entry.programId,
    at: entry.now,
    actor_account_id: entry.actor.accountId,
    actor: entry.actor.label,
    action: entry.action,
    target: entry.target,
    details: JSON.stringify(entry.details),
    reason: entry.reason ?? null,
  });
}
