import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { privateDatabase } from '../scale/databases';
import { spawnServer, type ServerProcess } from '../scale/server-process';
import { saleBody, salesFixture } from './setup';

// spec/rules.md "Faults", graceful shutdown on SIGTERM: in-flight requests finish, new ones are refused, the database closes.
const db = privateDatabase('shutdown');
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  await db.dispose();
});

/** Opens a raw connection and sends a request whose body is still incomplete: a request in flight. */
async function startRequest(port: number, path: string, key: string, body: string): Promise<{ socket: Socket; finish(): Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    socket,
    async finish() {
      socket.write(body.slice(half));
      await closed;
      return response;
    },
  };
}

/** Opens a fresh connection (never a pooled one): undefined when accepted, else the error code. */
function newConnection(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe(`graceful shutdown on ${db.kind}`, () => {
  it('finishes the request in flight, refuses new connections, closes the database and exits 0', async () => {
    const server = await spawnServer({ databaseUrl: db.url });
    servers.push(server);
    const fixture = await salesFixture(server);
    const transactionId = `txn_drain_${randomBytes(4).toString('hex')}`;
    const inFlight = await startRequest(server.port, '/api/v1/track/sale', fixture.key, saleBody(fixture, transactionId));
    // Let the server start reading the request before the signal arrives.
    await new Promise((r) => setTimeout(r, 100));

    server.child.kill('SIGTERM');
    // New connections are refused while the request in flight is still being waited for.
    let refused: string | undefined;
    for (let i = 0; i < 50 && !refused; i++) {
      await new Promise((r) => setTimeout(r, 20));
      refused = await newConnection(server.port);
    }
    expect(refused).toBe('ECONNREFUSED');
    expect(server.child.exitCode).toBeNull();

    const raw = await inFlight.finish();
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    const answered = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { sale_id: number; commission_id: number };
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('SIGTERM: finishing in-flight requests');

    if (db.file) {
      // A clean close checkpoints the write-ahead log into the database file and removes it.
      const wal = `${db.file}-wal`;
      expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    }

    // The sale answered during the drain is stored with its commission.
    const restarted = await spawnServer({ databaseUrl: db.url });
    servers.push(restarted);
    const records = await restarted.control.records(fixture.programId);
    const sale = records.sales.find((s) => s.processor_event_id === transactionId);
    expect(sale?.id).toBe(answered.sale_id);
    expect(records.commissions.find((c) => c.sale_id === answered.sale_id)?.id).toBe(answered.commission_id);
  }, 60_000);
});
