import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl, privateDatabase, type PrivateDatabase } from '../scale/databases';
import { spawnServer, type ServerProcess } from '../scale/server-process';
import { acknowledged, programWithEndpoint, sale, send } from './processes';
import { sleep, startReceiver, waitFor, type Receiver } from './receiver';

// Several servers on one PostgreSQL database share the outbox (spec/openapi.yaml, tag `outbound-webhooks`,
// "Delivery"): each delivery is claimed by one of them at a time (FOR UPDATE SKIP LOCKED and a lease), so none is
// sent twice. SQLite runs one process, so the SQLite project skips this with the reason.
const skipReason = postgresUrl ? undefined : 'DATABASE_URL does not name PostgreSQL';
if (skipReason) console.warn(`two-instance webhook delivery skipped: ${skipReason}`);

describe.skipIf(skipReason)('two servers on one PostgreSQL deliver each event once', () => {
  let db: PrivateDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let r: Receiver;

  beforeAll(async () => {
    db = privateDatabase('webhooks_two');
    // One after the other: the first migrates, the second finds the schema ready.
    a = await spawnServer({ databaseUrl: db.url });
    b = await spawnServer({ databaseUrl: db.url });
    r = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await r?.close();
    await db?.dispose();
  });

  it('41 events made on both servers reach a slow receiver exactly once each', async () => {
    // A slow receiver keeps attempts in flight while both servers poll, so their claims overlap.
    r.answer = () => ({ status: 204, delayMs: 150 });
    const p = await programWithEndpoint(a, r);
    const sales = await Promise.all(Array.from({ length: 20 }, (_, i) => sale(i % 2 === 0 ? a : b, p, 100 + i)));

    const delivered = await waitFor('41 deliveries', () => acknowledged(r).size >= 41 && acknowledged(r), 20_000);
    // Whatever is still claimed or retried has had time to show up twice.
    await sleep(2_000);
    expect(r.received).toHaveLength(41);
    expect([...acknowledged(r).values()].every((n) => n === 1)).toBe(true);
    expect(delivered.size).toBe(41);
    for (const request of r.received) expect(request.verifyError).toBeUndefined();
    const saleIds = r.received.filter((x) => x.event.type === 'sale.created').map((x) => x.event.data.sale_id);
    expect(saleIds.sort()).toEqual(sales.map((s) => s.saleId).sort());

    // Both servers' dashboards read the same states.
    for (const server of [a, b]) {
      const list = await send(server, 'GET', `/api/dashboard/programs/${p.programId}/webhook-endpoints`, { cookie: p.cookie });
      expect(
        list.body!.data[0].recent_deliveries.every(
          (d: { status: string; attempts: number }) => d.status === 'delivered' && d.attempts === 1,
        ),
      ).toBe(true);
    }
  }, 60_000);
});
