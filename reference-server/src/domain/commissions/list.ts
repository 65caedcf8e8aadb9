import { fail } from '../../errors/service-error';
import { listCommissions, type StatusFilter } from '../../store/commissions';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { idCursor } from '../paging/id-cursor';
import { positiveId } from '../partners/fields';
import { partnerOf } from '../partners/partners';
import { dateBound } from '../payouts/dates';
import { commissionView, type CommissionWire } from './decide';
import { commissionWireStatuses } from './status';

export const cursor = idCursor('c', 'commissionListCursorInvalid');

const maxLimit = 100;
const defaultLimit = 50;

/**
 * A page of the program's commissions, newest first (dashboard and `GET /api/v1/commissions`): optional `status`
 * (the wire status now), `partner_id`, `from`/`to` (as the CSV export reads dates), `cursor` (the previous page's
 * `next_cursor`: the last id it showed, opaque to callers), `limit` 1 to 100. Every parameter is checked first.
 */
export async function commissionsPage(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  program: Program,
  query: Record<string, unknown>,
): Promise<{ data: CommissionWire[]; next_cursor: string | null }> {
  let status: StatusFilter | undefined;
  if (query.status !== undefined) {
    if (!commissionWireStatuses.includes(query.status as StatusFilter)) throw fail('commissionStatusFilterInvalid');
    status = query.status as StatusFilter;
  }
  const from = query.from === undefined ? undefined : dateBound(query.from, 'start');
  const to = query.to === undefined ? undefined : dateBound(query.to, 'end');
  if ((query.from !== undefined && from === undefined) || (query.to !== undefined && to === undefined))
    throw fail('commissionListRangeInvalid');
  if (from !== undefined && to !== undefined && from > to) throw fail('commissionListRangeInvalid');
  const limit = pageLimit(query.limit);
  const beforeId = query.cursor === undefined ? undefined : cursor.id(query.cursor);
  let partnerId: number | undefined;
  if (query.partner_id !== undefined) partnerId = (await partnerOf(deps, program, positiveId(query.partner_id, 'partnerIdInvalid'))).id;

  const now = deps.clock.now();
  // One row more than the page tells whether another page follows.
  const rows = await listCommissions(deps.db, {
    programId: program.id,
    now,
    limit: limit + 1,
    ...(beforeId === undefined ? {} : { beforeId }),
    ...(partnerId === undefined ? {} : { partnerId }),
    ...(status === undefined ? {} : { status }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  });
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return {
    data: page.map((r) => commissionView(r, r.transaction_id, now)),
    next_cursor: more ? cursor.of(page[page.length - 1]!.id) : null,
  };
}

/** A list's `limit`: 1 to 100, 50 when absent (the commission and risk-event lists). */
export function pageLimit(value: unknown): number {
  const limit = value === undefined ? defaultLimit : typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= maxLimit)) throw fail('commissionListLimitInvalid');
  return limit;
}
