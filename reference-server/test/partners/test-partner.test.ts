import { describe, expect, it } from 'vitest';
import { assertValidResponse } from '../../src/testing/validate';
import { harnessPerFile } from '../harness';
import { merchant, visitorBuys } from './support';

const t = harnessPerFile();
const today = () => new Date().toISOString().slice(0, 10);

/**
 * A program with a real partner (Jane, one sale) after `svc test chain` made the test partner and link its test
 * clicks go through. Someone then opened the test link outside the CLI: to real traffic it is an unknown link, so
 * nothing is recorded and no commission can ever accrue to a partner nobody can see or pay.
 */
async function afterTestChain() {
  const m = await merchant(t.h);
  const key = m.program.api_token;
  const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
  const janeLink = (await m.call('POST', '/links', { partner_id: jane.id, short_link: 'jane-real' })).body.data;
  const chain = await t.h.request('POST', '/api/v1/cli/test-event', { key, json: { type: 'chain' } });
  expect(chain.body.data.events.map((e: { ok: boolean }) => e.ok)).toEqual([true, true, true]);
  const testLink = `svc-test-${m.program.id}`;
  const fixture = await t.h.store.db.selectFrom('referral_links').selectAll().where('short_link', '=', testLink).executeTakeFirstOrThrow();
  const testPartnerId = fixture.partner_id as number;
  await visitorBuys(t.h, key, janeLink.short_link, 10_000);
  const clicksBefore = await t.h.store.db.selectFrom('clicks').select('id').execute();
  const realClick = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${testLink}` } });
  expect(realClick.status).toBe(400);
  expect(realClick.body.error).toMatchObject({ message: 'Referral link not found', details: { code: 'link_not_found' } });
  expect(await t.h.store.db.selectFrom('clicks').select('id').execute()).toEqual(clicksBefore);
  return { m, key, jane, janeLink, testLink, testLinkId: fixture.id, testPartnerId };
}

describe("the test partner of the synthetic chain is none of the program's partners", () => {
  it('is absent from the partner and link lists, with the program key and in the dashboard', async () => {
    const { m, key, jane, janeLink } = await afterTestChain();
    const names = (list: { name: string }[]) => list.map((p) => p.name);
    expect(names((await t.h.request('GET', '/api/v1/partners', { key })).body.data.partners)).toEqual(['Jane']);
    // The dashboard's Partners table is drawn from these two answers.
    expect(names((await m.call('GET', '/partners')).body.data.partners)).toEqual(['Jane']);
    expect((await m.call('GET', '/links')).body.data.links).toEqual([{ ...janeLink, enabled: true }]);
    expect((await t.h.request('GET', '/api/v1/links', { key })).body.data.links.map((l: { partner_id: number }) => l.partner_id)).toEqual([
      jane.id,
    ]);
    const readiness = (await t.h.request('GET', '/api/v1/programs/me/readiness', { key })).body;
    expect(readiness.configuration.active_links).toBe(1);
  });

  it('is not in the commission CSV, and cannot be paid, changed or given links: it answers 404 like an unknown partner', async () => {
    const { m, key, jane, testLink, testLinkId, testPartnerId } = await afterTestChain();
    const url = `${m.base}/commissions.csv?from=${today()}&to=${today()}`;
    const csv = await t.h.app.inject({ method: 'GET', url, headers: { cookie: m.cookie } });
    assertValidResponse({ method: 'GET', url, status: csv.statusCode, headers: csv.headers, body: csv.body });
    const rows = csv.body.split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`,${jane.id},Jane,`);
    expect(csv.body).not.toContain('svc test partner');

    for (const refused of [
      await m.call('GET', `/commissions.csv?from=${today()}&to=${today()}&partner_id=${testPartnerId}`),
      await m.call('POST', '/payouts', { partner_id: testPartnerId, through: today() }),
      await m.call('PATCH', `/partners/${testPartnerId}`, { status: 'suspended' }),
      await t.h.request('PATCH', `/api/v1/partners/${testPartnerId}`, { key, json: { status: 'suspended' } }),
      await m.call('POST', '/links', { partner_id: testPartnerId }),
      await m.call('GET', `/links?partner_id=${testPartnerId}`),
    ]) {
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toBe('Partner not found');
    }
    for (const refused of [
      await m.call('PATCH', `/links/${testLinkId}`, { enabled: false }),
      await t.h.request('PATCH', `/api/v1/links/${testLink}`, { key, json: { enabled: false } }),
    ]) {
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toBe('Referral link not found');
    }
    // The test partner never had a commission (test sales make none), and the test chain still runs through its link.
    const commissions = await t.h.store.db.selectFrom('commissions').select('paid_at').where('partner_id', '=', testPartnerId).execute();
    expect(commissions).toEqual([]);
    const again = await t.h.request('POST', '/api/v1/cli/test-event', { key, json: { type: 'chain' } });
    expect(again.body.data.events.map((e: { ok: boolean }) => e.ok)).toEqual([true, true, true]);
  });
});
