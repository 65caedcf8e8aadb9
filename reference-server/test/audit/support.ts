import { expect } from 'vitest';
import type { Harness } from '../harness';
import { merchant } from '../partners/support';

export interface Entry {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  reason: string | null;
}

/** A merchant (see `merchant`) with its owner's email and a reader of its audit log through the route. */
export async function auditedMerchant(h: Harness) {
  const m = await merchant(h);
  const session = await h.request('GET', '/api/dashboard/session', { headers: { cookie: m.cookie } });
  const ownerEmail: string = session.body.data.email;
  /** Every entry, newest first (one page of 100: the tests stay below it). */
  const log = async (query = '', as = m.cookie): Promise<Entry[]> => {
    const res = await h.request('GET', `${m.base}/audit-log?limit=100${query}`, { headers: { cookie: as } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.next_cursor).toBeNull();
    return res.body.data.entries;
  };
  /** The entries appended since `mark` (an earlier `log()`), oldest first. */
  const since = async (mark: Entry[]): Promise<Entry[]> => {
    const newest = mark[0]?.id ?? 0;
    return (await log()).filter((e) => e.id > newest).reverse();
  };
  return { ...m, ownerEmail, keyActor: `api key …${m.program.api_token.slice(-4)}`, log, since };
}
