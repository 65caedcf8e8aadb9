import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateResponse } from '@svc/reference-server/testing';

export interface ValidatingProxy {
  url: string;
  /** Every `METHOD /path status: error` the spec did not allow, in order. */
  violations: string[];
  /** `METHOD /path status` of every response the CLI received. */
  seen: string[];
  close(): Promise<void>;
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

/**
 * Sits between the spawned `svc` binary and the reference server, and checks every response the CLI receives
 * against spec/openapi.yaml (the same validator the server's own suites use), then passes it on unchanged.
 */
export async function startValidatingProxy(target: string): Promise<ValidatingProxy> {
  const violations: string[] = [];
  const seen: string[] = [];
  const forward = async (request: IncomingMessage, reply: ServerResponse) => {
    try {
      const body = await readBody(request);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name, value]) => !hopByHop.has(name) && typeof value === 'string'),
      ) as Record<string, string>;
      const response = await fetch(target + request.url, {
        method: request.method,
        headers,
        ...(body ? { body: new Uint8Array(body) } : {}),
      });
      const text = await response.text();
      const responseHeaders = Object.fromEntries(response.headers);
      const path = new URL(request.url ?? '/', target).pathname;
      seen.push(`${request.method} ${path} ${response.status}`);
      const result = validateResponse({
        method: request.method ?? 'GET',
        url: path,
        status: response.status,
        headers: responseHeaders,
        body: text,
      });
      if (!result.valid) violations.push(`${request.method} ${path} ${response.status}: ${result.errors.join('; ')}`);
      for (const name of hopByHop) delete responseHeaders[name];
      reply.writeHead(response.status, responseHeaders).end(text);
    } catch (error) {
      violations.push(`proxy failure: ${(error as Error).message}`);
      reply.writeHead(502).end();
    }
  };
  const server = createServer((request, reply) => void forward(request, reply));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    seen,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
