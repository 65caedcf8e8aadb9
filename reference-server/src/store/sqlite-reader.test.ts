import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './db';
import { cachedLookup } from './lookup-cache';
import { findPartnerById, insertPartner } from './partners';
import { findSaleByTransactionId, insertSale } from './sales';

let store: Store | undefined;
let dir: string | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function fileStore(): Promise<Store> {
  dir = mkdtempSync(join(tmpdir(), 'svc-reader-'));
  store = await openStore(`sqlite:${join(dir, 'store.db')}`);
  return store;
}

const sale = {
  program_id: 1,
  customer_id: null,
  partner_id: null,
  processor_event_id: 't-1',
  amount_cents: 100,
  currency: 'USD' as const,
  is_test: 0 as const,
  source: 'api' as const,
  occurred_at: 1,
  created_at: 1,
};

describe('the SQLite file store reader', () => {
  it('answers reads while the writer is in a transaction, seeing committed rows only', async () => {
    const { db } = await fileStore();
    await db.transaction().execute(async (trx) => {
      await insertSale(trx, sale);
      // Through the writer this read would wait for the transaction it runs in, and never answer.
      expect(await findSaleByTransactionId(db, 't-1')).toBeUndefined();
    });
    expect(await findSaleByTransactionId(db, 't-1')).toMatchObject({ processor_event_id: 't-1' });
  });

  it('a lookup cached from the reader before a change commits is forgotten at the COMMIT', async () => {
    const { db } = await fileStore();
    const id = await insertPartner(db, { programId: 1, name: 'Old', now: 1 });
    const lookup = () => cachedLookup(db, `partner:${id}`, () => findPartnerById(db, id));
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('partners').set({ name: 'New' }).where('id', '=', id).execute();
      // Read from the reader after the write: the old row, cached.
      expect((await lookup())?.name).toBe('Old');
    });
    expect((await lookup())?.name).toBe('New');
  });
});
