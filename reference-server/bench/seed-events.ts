import { sql } from 'kysely';
import type { Store } from '../src/store/db';

/**
 * Bulk-seeds events straight into the store (the HTTP path would take hours for a million): a mix of real
 * clicks, leads and sales over the last 90 days across the program's partners, with 2 % test events, and the
 * program counters bumped to match. One INSERT … SELECT per batch, generated inside the database.
 */
export async function seedEvents(store: Store, programId: number, partnerIds: number[], fromIndex: number, toIndex: number): Promise<void> {
  const now = Date.now();
  const span = 90 * 86_400_000;
  const batch = 100_000;
  const partners = partnerIds.length;
  const firstPartner = Math.min(...partnerIds);
  for (let start = fromIndex; start < toIndex; start += batch) {
    const end = Math.min(toIndex, start + batch);
    // i → type: 70 % click, 20 % lead, 10 % sale; every 50th a test event; times spread evenly over 90 days.
    const series =
      store.dialect === 'postgres'
        ? sql`select i from generate_series(${start}::bigint, ${end - 1}::bigint) as g(i)`
        : sql`select value as i from (with recursive s(value) as (select ${start} union all select value + 1 from s where value < ${end - 1}) select value from s)`;
    await sql`
      insert into events (program_id, type, is_test, occurred_at, partner_id, click_id, customer_key, provisional, sale_id, amount_cents, currency, source)
      select ${programId},
        case when i % 10 < 7 then 'click' when i % 10 < 9 then 'lead' else 'sale' end,
        case when i % 50 = 0 then 1 else 0 end,
        ${now - span} + (i * 7919) % ${span},
        ${firstPartner} + i % ${partners},
        'clk_seed_' || i,
        case when i % 10 >= 7 then 'seed-customer-' || i else null end,
        0,
        null,
        case when i % 10 = 9 then 1000 + i % 5000 else null end,
        case when i % 10 = 9 then 'USD' else null end,
        case when i % 10 = 9 then 'api' else null end
      from (${series}) as seq`.execute(store.db);
  }
  const count = toIndex - fromIndex;
  const real = count - Math.floor(count / 50);
  await sql`
    update program_metrics set
      clicks = clicks + ${Math.floor(real * 0.7)},
      leads = leads + ${Math.floor(real * 0.2)},
      sales = sales + ${Math.floor(real * 0.1)},
      last_event_at = ${now}
    where program_id = ${programId} and shard = 0`.execute(store.db);
}
