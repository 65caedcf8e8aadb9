import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { preparedName } from './prepared';
import { findSaleByTransactionId } from '../sales';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

describe.runIf(url.startsWith('postgres'))('prepared statements on PostgreSQL', () => {
  it("run the hot path's compiled queries prepared, once per connection, and nothing else", async () => {
    store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
    const { db } = store;
    const prepared = await db.transaction().execute(async (trx) => {
      // One connection: the transaction's. Twice, to see it prepared once and then reused.
      await findSaleByTransactionId(trx, 'none');
      await findSaleByTransactionId(trx, 'none');
      await trx.selectFrom('sales').select('id').where('amount_cents', '=', 1).execute();
      return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx)).rows;
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.statement).toMatch(/^select "id", "program_id", "amount_cents", "currency", "processor_event_id" from "sales"/);
    expect(preparedName(prepared[0]!.statement)).toBe(prepared[0]!.name);
  });
});
