import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { listAuditEntries, type AuditRow } from '../../store/audit-log';
import type { Program } from '../../store/schema';
import { integerParam } from '../dashboard/params';
import type { DomainContext } from '../context';
import { auditActions, type AuditAction } from './record';

export type AuditEntryWire = components['schemas']['AuditEntry'];
export type AuditLogPage = components['schemas']['AuditLogPage'];

const cursorText = /^[1-9]\d{0,15}$/;
/** What an entry is about, as `AuditEntry.target` writes it: `partner:3`. */
const targetText = /^[a-z_]+:[1-9]\d{0,15}$/;

/**
 * A page of the program's audit log, newest first (spec `dashboardAuditLog`): `limit` 1 to 100 (default 50),
 * `cursor` a `next_cursor` this list gave (the entries older than it), `action` one of `auditActions`, `target` what
 * the entries are about (`partner:3`). Every
 * parameter is checked before anything is read.
 */
export async function auditLogPage(
  deps: Pick<DomainContext, 'db'>,
  program: Program,
  query: Record<string, unknown>,
): Promise<AuditLogPage> {
  const limit = integerParam(query.limit, { min: 1, max: 100, fallback: 50 }, () => fail('auditLimitInvalid')) as number;
  let beforeId: number | undefined;
  if (query.cursor !== undefined) {
    if (typeof query.cursor !== 'string' || !cursorText.test(query.cursor)) throw fail('auditCursorInvalid');
    beforeId = Number(query.cursor);
    if (!Number.isSafeInteger(beforeId)) throw fail('auditCursorInvalid');
  }
  let action: AuditAction | undefined;
  if (query.action !== undefined) {
    if (!auditActions.includes(query.action as AuditAction)) throw fail('auditActionInvalid');
    action = query.action as AuditAction;
  }
  if (query.target !== undefined && (typeof query.target !== 'string' || !targetText.test(query.target))) throw fail('auditTargetInvalid');
  const target = query.target;
  // One more than asked: whether an older page exists, without a count.
  const rows = await listAuditEntries(deps.db, program.id, { limit: limit + 1, beforeId, action, target });
  const entries = rows.slice(0, limit).map(auditEntryView);
  const last = entries.at(-1);
  return { entries, next_cursor: rows.length > limit && last ? String(last.id) : null };
}

function auditEntryView(row: AuditRow): AuditEntryWire {
  return {
    id: Number(row.id),
    at: new Date(Number(row.at)).toISOString(),
    actor: row.actor,
    action: row.action as AuditAction,
    target: row.target,
    details: JSON.parse(row.details) as Record<string, unknown>,
    reason: row.reason,
  };
}
