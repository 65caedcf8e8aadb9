import { afterEach, describe, expect, it } from 'vitest';
import { hashKey } from '../domain/programs/keys';
import { openStore, uniqueSchemaName, type Store } from '../store/db';
import { systemClock } from '../clock';
import { demo, seedDemo } from './seed';

const databaseUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

const open = async () =>
  (store = await openStore(
    databaseUrl,
    databaseUrl.startsWith('postgres') ? { pgSchema: uniqueSchemaName('svc_seed'), dropSchemaOnClose: true } : {},
  ));

describe('seedDemo', () => {
  it("records the partner and the link it makes, and each later start's new key, in the audit log as the system", async () => {
    const db = (await open()).db;
    const first = await seedDemo(store!, systemClock);
    const second = await seedDemo(store!, systemClock);
    // A key given by SVC_DEMO_API_KEY and kept: no change, no entry.
    await seedDemo(store!, systemClock, { apiKey: second.apiKey });
    const entries = await db
      .selectFrom('audit_log')
      .select(['program_id', 'actor', 'actor_account_id', 'action', 'target'])
      .orderBy('id')
      .execute();
    expect(entries).toEqual([
      {
        program_id: first.programId,
        actor: 'system',
        actor_account_id: null,
        action: 'partner.created',
        target: `partner:${first.partnerId}`,
      },
      {
        program_id: first.programId,
        actor: 'system',
        actor_account_id: null,
        action: 'link.created',
        target: expect.stringMatching(/^link:\d+$/),
      },
      {
        program_id: first.programId,
        actor: 'system',
        actor_account_id: null,
        action: 'program.key_regenerated',
        target: `program:${first.programId}`,
      },
    ]);
    const details = await db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'program.key_regenerated')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(details.details)).toEqual({ api_key_last4: { from: first.apiKey.slice(-4), to: second.apiKey.slice(-4) } });
  });

  it('finds its account, program, partner and link again on every start, with a new key each time', async () => {
    const db = (await open()).db;
    const first = await seedDemo(store!, systemClock);
    const second = await seedDemo(store!, systemClock);

    expect(second).toMatchObject({
      accountId: first.accountId,
      programId: first.programId,
      partnerId: first.partnerId,
      shortLink: demo.shortLink,
    });
    expect(second.apiKey).not.toBe(first.apiKey);
    for (const table of ['accounts', 'programs', 'partners', 'referral_links'] as const) {
      const rows = await db.selectFrom(table).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(rows.n), table).toBe(1);
    }
    // Made by the dashboard's domain code: the partner is invited by email, the link is enabled.
    expect(await db.selectFrom('partners').select(['name', 'email', 'status']).executeTakeFirstOrThrow()).toEqual({
      name: demo.partnerName,
      email: demo.partnerEmail,
      status: 'active',
    });
    const program = await db.selectFrom('programs').selectAll().executeTakeFirstOrThrow();
    expect(program).toMatchObject({ lead_auth: 'browser_allowed', api_key_hash: hashKey(second.apiKey), key_rotate_by: null });
  });

  it('keeps a key given by SVC_DEMO_API_KEY, turns its link back on and makes browser leads count again', async () => {
    const db = (await open()).db;
    const apiKey = 'svc_live_demo_fixed_key_for_the_walkthrough';
    const first = await seedDemo(store!, systemClock, { apiKey });
    await db.updateTable('referral_links').set({ enabled: 0 }).execute();
    await db.updateTable('programs').set({ lead_auth: 'server_required' }).execute();

    const again = await seedDemo(store!, systemClock, { apiKey });
    expect(again.apiKey).toBe(apiKey);
    expect(again.programId).toBe(first.programId);
    expect(await db.selectFrom('referral_links').select('enabled').executeTakeFirstOrThrow()).toEqual({ enabled: 1 });
    expect(await db.selectFrom('programs').select(['lead_auth', 'api_key_hash']).executeTakeFirstOrThrow()).toEqual({
      lead_auth: 'browser_allowed',
      api_key_hash: hashKey(apiKey),
    });
  });

  it('refuses to take over a demo-partner link that belongs to another program', async () => {
    const db = (await open()).db;
    const seeded = await seedDemo(store!, systemClock);
    const other = await db
      .insertInto('partners')
      .values({ program_id: seeded.programId, name: 'Someone else', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('referral_links').set({ partner_id: other.id }).execute();
    await expect(seedDemo(store!, systemClock)).rejects.toThrow(/referral link demo-partner already belongs/);
  });
});
