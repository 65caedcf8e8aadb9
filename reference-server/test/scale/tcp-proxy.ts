import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy the test owns, forwarding to a real service (the shared Redis): closing it is an outage seen by
 * whoever connects through it (listener stopped, every open connection cut), without touching the service itself.
 * `open()` again listens on the same port, as a Redis coming back. `freeze()` holds back the answers on open
 * connections (a hung service: connected, silent) until `thaw()` delivers them, in order, as TCP would.
 */
export interface TcpProxy {
  port: number;
  url: string;
  open(): Promise<void>;
  close(): Promise<void>;
  freeze(): void;
  thaw(): void;
}

export async function tcpProxy(target: { host: string; port: number }, scheme = 'redis'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let held: (() => void)[] | undefined;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.on('data', (chunk: Buffer) => (held ? held.push(() => client.write(chunk)) : client.write(chunk)));
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        const address = s.address();
        if (typeof address === 'object' && address) port = address.port;
        server = s;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    get url() {
      return `${scheme}://127.0.0.1:${port}`;
    },
    open: listen,
    freeze() {
      held ??= [];
    },
    thaw() {
      const release = held ?? [];
      held = undefined;
      for (const write of release) write();
    },
    async close() {
      const s = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
