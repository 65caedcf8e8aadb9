import { sql } from 'kysely';
import type { Store } from '../../src/store/db';

/**
 * PostgreSQL: a concurrent writer that holds a partner's commission rows locked. Requests started meanwhile read
 * the rows as they were and then wait on the lock (or on each other); `release` lets them all go at once, so a test
 * can make two requests overlap for certain instead of by timing. On SQLite, which runs one transaction at a time,
 * there is nothing to hold and `release` does nothing.
 */
export async function holdCommissionsLocked(store: Store, partnerId: number) {
  if (store.dialect !== 'postgres') return { waitForBlocked: async () => {}, release: async () => {} };
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  let holder = 0;
  const finished = store.db.transaction().execute(async (trx) => {
    holder = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
    await trx.selectFrom('commissions').select('id').where('partner_id', '=', partnerId).forUpdate().execute();
    locked();
    await released;
  });
  await Promise.race([isLocked, finished]);
  return {
    /** Resolves once `count` backends wait, directly or through one another, on this lock. */
    async waitForBlocked(count: number): Promise<void> {
      for (let tries = 0; tries < 500; tries++) {
        const { rows } = await sql<{ pid: number; blockers: number[] }>`
          select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity where cardinality(pg_blocking_pids(pid)) > 0
        `.execute(store.db);
        const behind = new Set([holder]);
        for (let grew = true; grew;) {
          grew = false;
          for (const row of rows) {
            if (!behind.has(row.pid) && row.blockers.some((pid) => behind.has(pid))) {
              behind.add(row.pid);
              grew = true;
            }
          }
        }
        if (behind.size - 1 >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`fewer than ${count} requests waited on the held commissions`);
    },
    async release(): Promise<void> {
      letGo();
      await finished;
    },
  };
}
