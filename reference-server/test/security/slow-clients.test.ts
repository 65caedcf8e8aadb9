import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import type { ConnectionLimits } from '../../src/http/connection-limits';
import { openStore, uniqueSchemaName, type Store } from '../../src/store/db';
import { contractFetch } from '../../src/testing/fetch';

// A body trickled slowly, or sockets held open, must not hold the server forever. Real
// sockets; the limits are made small so the server acts within the test's own timeout (no timing is asserted).
let close: (() => Promise<void>) | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await close?.();
  close = undefined;
});

async function serve(limits: Partial<ConnectionLimits>): Promise<{ port: number; base: string }> {
  const store: Store = await openStore(process.env.DATABASE_URL ?? 'sqlite::memory:', {
    pgSchema: uniqueSchemaName(),
    dropSchemaOnClose: true,
  });
  const app = buildApp({ store, connectionLimits: limits });
  await app.listen({ host: '127.0.0.1', port: 0 });
  close = async () => {
    await app.close();
    await store.close();
  };
  const { port } = app.server.address() as AddressInfo;
  return { port, base: `http://127.0.0.1:${port}` };
}

/** Opens a socket and resolves with everything the server sent once it closes the socket. */
function open(port: number): { socket: Socket; closed: Promise<string>; connected: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  const connected = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return { socket, closed, connected };
}

describe('slow clients', () => {
  it('a body that never finishes arriving gets 408 and the socket is closed (requestTimeout)', async () => {
    const { port } = await serve({ requestTimeoutMs: 1_000, connectionTimeoutMs: 60_000 });
    const { socket, closed, connected } = open(port);
    await connected;
    socket.write('POST /api/v1/track/click HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"aff');
    // Keep trickling so the socket is never idle: only the whole-request deadline can end it.
    const trickle = setInterval(() => socket.write(' '), 200);
    const answer = await closed;
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it('connections past maxConnections are closed on arrival; the server keeps answering', async () => {
    const { port, base } = await serve({ maxConnections: 2 });
    const held = [open(port), open(port)];
    await Promise.all(held.map((s) => s.connected));
    const third = open(port);
    expect(await third.closed).toBe('');
    for (const s of held) s.socket.destroy();
    await Promise.all(held.map((s) => s.closed));
    const health = await contractFetch(`${base}/healthz`);
    expect(health.status).toBe(200);
  }, 20_000);
});
