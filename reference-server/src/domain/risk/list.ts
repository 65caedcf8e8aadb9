import type { RiskEventsPage } from '@svc/types';
import { fail } from '../../errors/service-error';
import { listRiskEvents } from '../../store/risk-events';
import type { Program } from '../../store/schema';
import { cursor, pageLimit } from '../commissions/list';
import type { DomainContext } from '../context';
import { positiveId } from '../partners/fields';
import { partnerOf } from '../partners/partners';
import { riskKinds, type RiskKind } from './kinds';
import { riskEventView } from './view';

/**
 * A page of the program's risk events, newest first (dashboard and `GET /api/v1/risk-events`): optional
 * `partner_id`, `kind`, `cursor` (the previous page's `next_cursor`), `limit` 1 to 100. Every parameter is checked
 * before anything is read.
 */
export async function riskEventsPage(
  deps: Pick<DomainContext, 'db'>,
  program: Program,
  query: Record<string, unknown>,
): Promise<RiskEventsPage> {
  let kind: RiskKind | undefined;
  if (query.kind !== undefined) {
    if (!riskKinds.includes(query.kind as RiskKind)) throw fail('riskKindFilterInvalid');
    kind = query.kind as RiskKind;
  }
  const limit = pageLimit(query.limit);
  const beforeId = query.cursor === undefined ? undefined : cursor.id(query.cursor);
  const partnerId = query.partner_id === undefined ? undefined : positiveId(query.partner_id, 'partnerIdInvalid');
  if (partnerId !== undefined) await partnerOf(deps, program, partnerId);
  // One row more than the page tells whether another page follows.
  const rows = await listRiskEvents(deps.db, {
    programId: program.id,
    limit: limit + 1,
    ...(beforeId === undefined ? {} : { beforeId }),
    ...(partnerId === undefined ? {} : { partnerId }),
    ...(kind === undefined ? {} : { kind }),
  });
  const page = rows.slice(0, limit);
  return { data: page.map(riskEventView), next_cursor: rows.length > limit ? cursor.of(Number(page[page.length - 1]!.id)) : null };
}
