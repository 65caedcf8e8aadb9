import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { auditedMerchant } from './support';

// An audit entry is written in the transaction of the change it records: when the entry cannot be written (the
// table is taken away for the test), the change rolls back with it and the caller gets the 500, on both stores.
const t = harnessPerFile();

describe('audit entries commit with their change or not at all', () => {
  it('rolls back a partner change, a link, a settings change and a key regeneration whose entry fails', async () => {
    const m = await auditedMerchant(t.h);
    const jane = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    const db = t.h.store.db;
    const snapshot = async () => ({
      partners: await db
        .selectFrom('partners')
        .select(['id', 'name', 'status'])
        .where('program_id', '=', m.program.id)
        .orderBy('id')
        .execute(),
      links: await db.selectFrom('referral_links').select('id').where('program_id', '=', m.program.id).execute(),
      program: await db
        .selectFrom('programs')
        .select(['attribution_window_days', 'api_key_hash', 'api_key_last4'])
        .where('id', '=', m.program.id)
        .executeTakeFirstOrThrow(),
      endpoints: await db.selectFrom('webhook_endpoints').select('id').where('program_id', '=', m.program.id).execute(),
    });
    const before = await snapshot();

    await sql`alter table audit_log rename to audit_log_away`.execute(db);
    try {
      const attempts = [
        await m.call('PATCH', `/partners/${jane.id}`, { name: 'Renamed', status: 'suspended' }),
        await m.call('POST', '/partners', { name: 'Ann' }),
        await m.call('POST', '/links', { partner_id: jane.id }),
        await t.h.request('PATCH', m.base, { headers: { cookie: m.cookie }, json: { attribution_window_days: 7 } }),
        await t.h.request('POST', `${m.base}/regenerate-key`, { headers: { cookie: m.cookie } }),
        await m.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/rolled-back' }),
      ];
      expect(attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500, 500]);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(db);
    }
    expect(await snapshot()).toEqual(before);
    // The old key still works: the regeneration did not happen.
    expect((await t.h.request('GET', '/api/v1/partners', { key: m.program.api_token })).status).toBe(200);
    expect((await m.log()).map((e) => e.action)).toEqual(['partner.created']);
  });
});
