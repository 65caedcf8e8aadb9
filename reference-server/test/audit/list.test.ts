import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { account } from '../partners/support';
import { auditedMerchant } from './support';

// GET /api/dashboard/programs/{programId}/audit-log (spec dashboardAuditLog): newest first, cursor paging, the action
// filter, every parameter checked; any member reads it, nobody else; there is no way to write it.
const t = harnessPerFile();

async function withEntries() {
  const m = await auditedMerchant(t.h);
  const partners: number[] = [];
  for (const name of ['Ann', 'Ben', 'Cy']) partners.push((await m.call('POST', '/partners', { name })).body.data.id);
  const links: number[] = [];
  for (const id of partners.slice(0, 2)) links.push((await m.call('POST', '/links', { partner_id: id })).body.data.id);
  const page = (query: string, as = m.cookie) => t.h.request('GET', `${m.base}/audit-log${query}`, { headers: { cookie: as } });
  return { m, partners, links, page };
}

describe('the audit log list', () => {
  it('pages newest first with next_cursor until null, and keeps one action or one target with the filters', async () => {
    const { m, partners, links, page } = await withEntries();
    const targets = (res: Awaited<ReturnType<typeof page>>) => res.body.data.entries.map((e: { target: string }) => e.target);

    const first = await page('?limit=2');
    expect(first.status).toBe(200);
    expect(targets(first)).toEqual([`link:${links[1]}`, `link:${links[0]}`]);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await page(`?limit=2&cursor=${first.body.data.next_cursor}`);
    expect(targets(second)).toEqual([`partner:${partners[2]}`, `partner:${partners[1]}`]);
    const third = await page(`?limit=2&cursor=${second.body.data.next_cursor}`);
    expect(targets(third)).toEqual([`partner:${partners[0]}`]);
    expect(third.body.data.next_cursor).toBeNull();
    // Exactly a page's worth: no empty page after it.
    const exact = await page('?limit=5');
    expect(exact.body.data.entries).toHaveLength(5);
    expect(exact.body.data.next_cursor).toBeNull();
    // Default limit (50) holds them all.
    expect((await page('')).body.data.entries).toHaveLength(5);

    const filtered = await page('?action=partner.created&limit=2');
    expect(targets(filtered)).toEqual([`partner:${partners[2]}`, `partner:${partners[1]}`]);
    const rest = await page(`?action=partner.created&limit=2&cursor=${filtered.body.data.next_cursor}`);
    expect(targets(rest)).toEqual([`partner:${partners[0]}`]);
    expect(rest.body.data.next_cursor).toBeNull();
    expect((await page('?action=commission.approved')).body.data).toEqual({ entries: [], next_cursor: null });

    // About one target: a partner's page lists the entries about that partner.
    const renamed = await m.call('PATCH', `/partners/${partners[1]}`, { name: 'Benjamin' });
    expect(renamed.status).toBe(200);
    expect(targets(await page(`?target=partner:${partners[1]}`))).toEqual([`partner:${partners[1]}`, `partner:${partners[1]}`]);
    expect(targets(await page(`?target=partner:${partners[1]}&limit=1`))).toEqual([`partner:${partners[1]}`]);
    expect(targets(await page(`?target=link:${links[0]}&action=link.created`))).toEqual([`link:${links[0]}`]);
    expect((await page('?target=partner:999999')).body.data).toEqual({ entries: [], next_cursor: null });
  });

  it('refuses a bad limit, cursor, action or target with its message, in the platform envelope', async () => {
    const { page } = await withEntries();
    const cases: [string, string][] = [
      ['?limit=0', 'limit must be an integer from 1 to 100'],
      ['?limit=101', 'limit must be an integer from 1 to 100'],
      ['?limit=ten', 'limit must be an integer from 1 to 100'],
      ['?cursor=abc', 'cursor must be a next_cursor this list returned'],
      ['?cursor=0', 'cursor must be a next_cursor this list returned'],
      ['?cursor=99999999999999999', 'cursor must be a next_cursor this list returned'],
      ['?action=payout.deleted', 'action must be one of the AuditAction values'],
      ['?action=', 'action must be one of the AuditAction values'],
      ['?target=partner', 'target must name what was acted on as kind:id, such as partner:3'],
      ['?target=partner:0', 'target must name what was acted on as kind:id, such as partner:3'],
      ['?target=Partner:3', 'target must name what was acted on as kind:id, such as partner:3'],
      ['?target=', 'target must name what was acted on as kind:id, such as partner:3'],
    ];
    for (const [query, message] of cases) {
      const res = await page(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toBe(message);
    }
  });

  it("lets any member read it, not another program's owner nor the program key; it has no write route", async () => {
    const { m, page } = await withEntries();
    const member = await account(t.h, 'reader@example.com', { programId: m.program.id, role: 'member' });
    expect((await page('', member)).body.data.entries).toHaveLength(5);
    const other = await auditedMerchant(t.h);
    expect((await page('', other.cookie)).status).toBe(403);
    expect((await other.log()).length).toBe(0);
    const keyed = await t.h.request('GET', `${m.base}/audit-log`, { key: m.program.api_token });
    expect(keyed.status).toBe(401);
    // No write method is routed (nor in the spec, so straight to the app, past the harness's validation).
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE'] as const) {
      const res = await t.h.app.inject({ method, url: `${m.base}/audit-log`, headers: { cookie: m.cookie }, payload: {} });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await page('')).body.data.entries).toHaveLength(5);
  });
});
