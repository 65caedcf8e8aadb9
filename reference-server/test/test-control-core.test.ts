import { describe, expect, it } from 'vitest';
import { harnessPerFile } from './harness';

const t = harnessPerFile();

describe('test-control core', () => {
  it('creates a program with its owner account and defaults', async () => {
    const created = await t.h.request('POST', '/_test/programs', { json: {} });
    expect(created.status).toBe(201);
    expect(created.body.api_token).toMatch(/^svc_live_/);
    const program = await t.h.store.db.selectFrom('programs').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(program).toMatchObject({
      commission_type: 'percent',
      commission_rate: 10,
      attribution_window_days: 60,
      lead_auth: 'server_required',
      allowed_origins: null,
      advertiser_id: created.body.advertiser_id,
    });
    // Only the hash of the key is stored.
    expect(JSON.stringify(program)).not.toContain(created.body.api_token);
    const membership = await t.h.store.db
      .selectFrom('memberships')
      .selectAll()
      .where('account_id', '=', created.body.account_id)
      .executeTakeFirstOrThrow();
    expect(membership.role).toBe('owner');
  });

  it('creates a second program for an existing account, and 404s an unknown account', async () => {
    const first = await t.h.control.createProgram();
    const second = await t.h.control.createProgram({
      account_id: first.account_id,
      name: 'Two',
      commission_type: 'fixed',
      commission_rate: 500,
    });
    expect(second.advertiser_id).toBe(first.advertiser_id);
    const missing = await t.h.request('POST', '/_test/programs', { json: { account_id: 999999 } });
    expect(missing.status).toBe(404);
    const bad = await t.h.request('POST', '/_test/programs', { json: { commission_type: 'weekly' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('commission_type');
    const unknownField = await t.h.request('POST', '/_test/programs', { json: { colour: 'red' } });
    expect(unknownField.status).toBe(400);
  });

  it('creates partners and links, turns links off and on, and builds broken links', async () => {
    const program = await t.h.control.createProgram();
    const partner = await t.h.control.createPartner({ program_id: program.id, name: 'Ann' });
    const link = await t.h.control.createLink({ partner_id: partner.id, short_link: 'ann' });
    expect(link.short_link).toBe('ann');
    const generated = await t.h.control.createLink({ program_id: program.id });
    expect(generated.short_link).toMatch(/^lnk_/);
    const broken = await t.h.control.createLink({ program_id: program.id, partner_id: null });
    const row = await t.h.store.db.selectFrom('referral_links').selectAll().where('id', '=', broken.id).executeTakeFirstOrThrow();
    expect(row.partner_id).toBeNull();
    expect(await t.h.control.setLinkEnabled('ann', false)).toEqual({ short_link: 'ann', enabled: false });
    expect((await t.h.request('PATCH', '/_test/links/nope', { json: { enabled: true } })).status).toBe(404);
    expect((await t.h.request('POST', '/_test/links', { json: { short_link: 'ann', program_id: program.id } })).status).toBe(400);
    expect((await t.h.request('POST', '/_test/partners', { json: { program_id: 424242 } })).status).toBe(404);
  });

  it('moves the clock, arms faults, marks key rotation, and reset puts everything back', async () => {
    const set = await t.h.control.clock({ now: '2030-01-01T00:00:00.000Z' });
    expect(Date.parse(set.now)).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00.000Z'));
    const advanced = await t.h.control.clock({ advance_seconds: 3600 });
    expect(Date.parse(advanced.now) - Date.parse(set.now)).toBeGreaterThanOrEqual(3600_000);
    expect((await t.h.request('POST', '/_test/clock', { json: {} })).status).toBe(400);
    expect(await t.h.control.armFault({ point: 'sale', times: 2 })).toEqual({ point: 'sale', times: 2 });
    expect((await t.h.request('POST', '/_test/faults', { json: { point: 'everything' } })).status).toBe(400);
    const program = await t.h.control.createProgram();
    const marked = await t.h.request('POST', `/_test/programs/${program.id}/key-rotation`, { json: { rotate_by: '2030-02-01T00:00:00Z' } });
    expect(marked.status).toBe(200);
    expect(marked.body.rotate_by).toBe('2030-02-01T00:00:00.000Z');
    expect((await t.h.request('POST', '/_test/programs/999999/key-rotation', { json: { rotate_by: '2030-02-01T00:00:00Z' } })).status).toBe(
      404,
    );

    const reset = await t.h.request('POST', '/_test/reset');
    expect(reset.status).toBe(204);
    expect(Math.abs(t.h.app.svc.clock.now() - Date.now())).toBeLessThan(5_000);
    expect(() => t.h.app.svc.faults.check('sale')).not.toThrow();
    expect(await t.h.store.db.selectFrom('programs').selectAll().execute()).toEqual([]);
  });

  it("lists a program's records, and 404s an unknown program", async () => {
    const program = await t.h.control.createProgram();
    expect(await t.h.control.records(program.id)).toEqual({ clicks: [], customers: [], sales: [], commissions: [] });
    expect((await t.h.request('GET', '/_test/programs/999999/records')).status).toBe(404);
  });
});
