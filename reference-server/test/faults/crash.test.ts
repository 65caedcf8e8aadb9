import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { privateDatabase } from '../scale/databases';
import { spawnServer, type ServerProcess } from '../scale/server-process';
import { expectAcknowledgedKept, saleBody, salesFixture, saleStream, untilAcknowledged } from './setup';

// spec/rules.md "Faults", crash safety: SIGKILL in the middle of a stream of sales, then restart on the same data. Runs on a
// SQLite file in the SQLite project and on a private PostgreSQL schema in the PostgreSQL project.
const db = privateDatabase('crash');
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  await db.dispose();
});

describe(`crash safety on ${db.kind}`, () => {
  it('keeps every sale answered 200 with its commission after SIGKILL; only the documented failure lacks one', async () => {
    // Rate limits off: the stream is far above the 120/min sale limit.
    const first = await spawnServer({ databaseUrl: db.url, env: { SVC_RATE_LIMITS: 'off' } });
    servers.push(first);
    const fixture = await salesFixture(first);

    // The documented failure path (spec/rules.md "States and transitions"): the sale is stored, the commission is not, 500.
    await first.control.armFault({ point: 'commission' });
    const failedTxn = `txn_fail_${randomBytes(4).toString('hex')}`;
    const failed = await fetch(`${first.url}/api/v1/track/sale`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.key}` },
      body: saleBody(fixture, failedTxn),
    });
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { message: string } }).error.message).toBe('Failed to create commission');

    const stream = saleStream([first], fixture, 6);
    // Kill mid-stream, once a good number of sales have been answered.
    await untilAcknowledged(stream, 40);
    first.child.kill('SIGKILL');
    await first.exited;
    await stream.stop();

    const second = await spawnServer({ databaseUrl: db.url, env: { SVC_RATE_LIMITS: 'off' } });
    servers.push(second);
    const withoutCommission = await expectAcknowledgedKept(second.control, fixture, stream.answers);
    expect(stream.acknowledged()).toBeGreaterThanOrEqual(40);
    // No stored sale lacks its commission (sales cut off mid-request included), except the documented failure.
    expect(withoutCommission).toEqual([failedTxn]);
    // …whose transaction_id stays consumed after the restart (spec/rules.md "States and transitions").
    const resend = await fetch(`${second.url}/api/v1/track/sale`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.key}` },
      body: saleBody(fixture, failedTxn),
    });
    expect(resend.status).toBe(409);
  }, 60_000);
});
