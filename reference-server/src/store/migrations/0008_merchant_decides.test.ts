import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { merchantDecidesMigration } from './0008_merchant_decides';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe('migration 0008: invitations, who turned a link off, held commissions', () => {
  it('counts existing partners as accepted and existing disabled links as turned off by the merchant', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const db = store.db;
    const { id: partnerId } = await db
      .insertInto('partners')
      .values({ program_id: 7, name: 'Jane', email: 'jane@example.com', created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const link = async (shortLink: string, enabled: 0 | 1) =>
      (
        await db
          .insertInto('referral_links')
          .values({ program_id: 7, partner_id: partnerId, short_link: shortLink, enabled, created_at: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const on = await link('jane-on', 1);
    const off = await link('jane-off', 0);
    // As before the migration: none of its columns or its index.
    await db.schema.dropIndex('commissions_partner_status').execute();
    for (const column of ['invitation', 'invited_by_account_id']) await db.schema.alterTable('partners').dropColumn(column).execute();
    await db.schema.alterTable('referral_links').dropColumn('disabled_by').execute();
    for (const column of ['hold_reason', 'decided_by_account_id', 'decided_at', 'decline_reason'])
      await db.schema.alterTable('commissions').dropColumn(column).execute();
    await merchantDecidesMigration(store.dialect).up(db as unknown as Kysely<unknown>);

    expect(await db.selectFrom('partners').select(['invitation', 'invited_by_account_id']).execute()).toEqual([
      { invitation: 'accepted', invited_by_account_id: null },
    ]);
    expect(await db.selectFrom('referral_links').select(['id', 'disabled_by']).orderBy('id').execute()).toEqual([
      { id: on, disabled_by: null },
      { id: off, disabled_by: 'merchant' },
    ]);
  });
});
