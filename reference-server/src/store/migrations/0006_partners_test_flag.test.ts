import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { partnersTestFlagMigration } from './0006_partners_test_flag';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe('migration 0006: partners.is_test', () => {
  it('flags the test partners made before it (by their svc-test-<program id> link) and nobody else', async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const db = store.db;
    const partner = async (programId: number, name: string, shortLink: string) => {
      const { id } = await db
        .insertInto('partners')
        .values({ program_id: programId, name, created_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('referral_links')
        .values({ program_id: programId, partner_id: id, short_link: shortLink, created_at: 1 })
        .execute();
      return id;
    };
    const fixture = await partner(7, 'svc test partner', 'svc-test-7');
    const real = await partner(7, 'Jane', 'jane-7');
    const elsewhere = await partner(8, 'Zed', 'svc-test-9');
    // As before the migration: no column yet.
    await db.schema.alterTable('partners').dropColumn('is_test').execute();
    await partnersTestFlagMigration.up(db as unknown as Kysely<unknown>);

    const flags = await db.selectFrom('partners').select(['id', 'is_test']).orderBy('id').execute();
    expect(flags).toEqual([
      { id: fixture, is_test: 1 },
      { id: real, is_test: 0 },
      { id: elsewhere, is_test: 0 },
    ]);
  });
});
