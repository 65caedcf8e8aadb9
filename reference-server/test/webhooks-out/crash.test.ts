import { afterAll, describe, expect, it } from 'vitest';
import { privateDatabase } from '../scale/databases';
import { spawnServer, type ServerProcess } from '../scale/server-process';
import { acknowledged, programWithEndpoint, sale, send } from './processes';
import { startReceiver, waitFor, type Receiver } from './receiver';

// Durable delivery (spec/openapi.yaml, tag `outbound-webhooks`, "Delivery"): the outbox is written with the record,
// so a server killed with SIGKILL while deliveries are pending (retries waiting, first attempts not yet made)
// delivers every one of them once a server starts again on the same database, under the same webhook-id.
// Runs on a SQLite file in the SQLite project and on a private PostgreSQL schema in the PostgreSQL project.
const db = privateDatabase('webhooks_crash');
// The SIGTERM case runs on a database of its own: no server of the first case may claim its deliveries.
const db2 = privateDatabase('webhooks_term');
const servers: ServerProcess[] = [];
let receiver: Receiver | undefined;
// A 2-second claim lease (30 s by default; attempts then time out at a third of it): an attempt cut off by the kill
// goes out again 2 s after its claim, so the test waits seconds, not the default lease.
const lease = { SVC_WEBHOOK_LEASE_MS: '2000' };
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  await receiver?.close();
  await db.dispose();
  await db2.dispose();
});

describe(`outbound webhooks survive SIGKILL on ${db.kind}`, () => {
  it('pending deliveries go out after a restart, each under the webhook-id of its earlier attempt', async () => {
    receiver = await startReceiver();
    const r = receiver;
    r.answer = () => 500;
    const first = await spawnServer({ databaseUrl: db.url, env: lease });
    servers.push(first);
    const p = await programWithEndpoint(first, r);

    // Five sales whose first attempts fail (500): their retries are pending when the server dies.
    const sales = [];
    for (let i = 0; i < 5; i++) sales.push(await sale(first, p));
    const failedFirst = await waitFor('the failed first attempts', () => {
      const ids = new Set(r.received.map((x) => String(x.headers['webhook-id'])));
      return ids.size >= 11 && ids; // 1 lead + 5 sales + 5 commissions
    });
    // Three more sales, the server killed as soon as they are answered: some first attempts may never start.
    for (let i = 0; i < 3; i++) sales.push(await sale(first, p));
    first.child.kill('SIGKILL');
    await first.exited;
    expect(acknowledged(r).size).toBe(0);

    r.answer = () => 204;
    const second = await spawnServer({ databaseUrl: db.url, env: lease });
    servers.push(second);
    // Retries are due 5 s (server clock) after the failed attempts: the clock moves past that instead of the test
    // waiting. An attempt cut off by the kill waits out its 2-second lease.
    await second.control.clock({ advance_seconds: 6 });
    const delivered = await waitFor('every event delivered', () => acknowledged(r).size >= 17 && acknowledged(r), 20_000);

    for (const request of r.received) {
      expect(request.verifyError, request.body).toBeUndefined();
      expect(request.specErrors, request.body).toEqual([]);
    }
    const events = r.received.filter((x) => x.status === 204).map((x) => x.event);
    expect(events.filter((e) => e.type === 'lead.created')).toHaveLength(1);
    expect(
      events
        .filter((e) => e.type === 'sale.created')
        .map((e) => e.data.sale_id)
        .sort(),
    ).toEqual(sales.map((s) => s.saleId).sort());
    expect(
      events
        .filter((e) => e.type === 'commission.created')
        .map((e) => e.data.commission_id)
        .sort(),
    ).toEqual(sales.map((s) => s.commissionId).sort());
    // The events that failed before the kill are delivered under the same webhook-id, each once.
    for (const id of failedFirst) expect(delivered.get(id), id).toBe(1);
    expect([...delivered.values()].every((n) => n === 1)).toBe(true);

    // The restarted server's dashboard (the session is in the database too) shows them delivered. The receiver has
    // answered before the server records the last "delivered", so the record is awaited, not read at once.
    const recent = await waitFor('every recent delivery recorded as delivered', async () => {
      const list = await send(second, 'GET', `/api/dashboard/programs/${p.programId}/webhook-endpoints`, { cookie: p.cookie });
      expect(list.status).toBe(200);
      const deliveries = list.body!.data[0].recent_deliveries as { status: string; attempts: number }[];
      return deliveries.every((d) => d.status === 'delivered') && deliveries;
    });
    expect(recent).toHaveLength(10);
  }, 60_000);

  it('on SIGTERM an attempt on its way is abandoned uncounted and given back: the next server sends it at once', async () => {
    const r = await startReceiver();
    try {
      r.answer = ({ count }) => (count === 1 ? 'hang' : 204);
      const first = await spawnServer({ databaseUrl: db2.url });
      servers.push(first);
      const p = await programWithEndpoint(first, r);
      await waitFor('the attempt in flight', () => r.received.length === 1);
      // The receiver never answers: a server that waited for the attempt would record it as failed at its timeout.
      expect(await first.stop('SIGTERM')).toBe(0);

      const second = await spawnServer({ databaseUrl: db2.url });
      servers.push(second);
      // Given back, not leased: sent within the first polls, not 30 seconds later.
      await waitFor('the attempt after the restart', () => r.received.length === 2, 5_000);
      expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
      expect(r.received[1]!.verifyError).toBeUndefined();
      const list = await send(second, 'GET', `/api/dashboard/programs/${p.programId}/webhook-endpoints`, { cookie: p.cookie });
      const [delivery] = await waitFor('the delivered record', async () => {
        const again = await send(second, 'GET', `/api/dashboard/programs/${p.programId}/webhook-endpoints`, { cookie: p.cookie });
        const recent = again.body!.data[0].recent_deliveries;
        return recent[0].status === 'delivered' && recent;
      });
      expect(list.status).toBe(200);
      // The abandoned attempt was not counted: the server stopped without waiting for it.
      expect(delivery).toMatchObject({ event_type: 'lead.created', status: 'delivered', attempts: 1 });
    } finally {
      await r.close();
    }
  }, 60_000);
});
