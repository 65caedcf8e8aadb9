import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The host name the tracker is served from; every other host name is a storefront. */
export const apiHost = 'api.svc.test';

export interface SeenRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  origin: string | undefined;
  body: string;
}

export interface Edge {
  httpPort: number;
  httpsPort: number;
  /** Every request that reached the API host, in order (the network as the service sees it). */
  seen: SeenRequest[];
  /**
   * The storefront page for a URL and the request's `Cookie` header; set by each test. A page with headers is what
   * a storefront's own backend answers (for example one re-issuing the click cookie with @svc/server/cookies).
   */
  page: (url: URL, cookie: string | undefined) => string | { headers: OutgoingHttpHeaders; body: string };
  close(): Promise<void>;
}

const fullBuild = new URL('../../dist/svc-tracker.full.js', import.meta.url);

/** A self-signed certificate made for the test run (Chromium runs with --ignore-certificate-errors). */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=shop.example.test',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
}

/**
 * One HTTP and one HTTPS listener in front of the reference server. On `api.svc.test` it passes every request
 * through to the reference server unchanged (recording it, so a test can see preflights and bodies), except
 * `/js/svc-tracker.full.js`, served from this package's build. Any other host gets the test's storefront page.
 */
export async function startEdge(referenceUrl: string): Promise<Edge> {
  const reference = new URL(referenceUrl);
  const edge: Omit<Edge, 'httpPort' | 'httpsPort' | 'close'> = { seen: [], page: () => '<!doctype html><title>empty</title>' };

  const handle = (request: IncomingMessage, response: ServerResponse, scheme: string) => {
    const url = new URL(request.url ?? '/', `${scheme}://${request.headers.host}`);
    if (url.hostname !== apiHost) {
      const page = edge.page(url, request.headers.cookie);
      const { headers, body } = typeof page === 'string' ? { headers: {}, body: page } : page;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers });
      response.end(body);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      edge.seen.push({
        method: request.method ?? '',
        path: url.pathname + url.search,
        contentType: request.headers['content-type'],
        origin: request.headers.origin,
        body: body.toString('utf8'),
      });
      if (url.pathname === '/js/svc-tracker.full.js') {
        response.writeHead(200, { 'content-type': 'application/javascript', 'cache-control': 'no-store' });
        response.end(readFileSync(fullBuild));
        return;
      }
      const upstream = httpRequest(
        {
          host: reference.hostname,
          port: reference.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: reference.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.writeHead(502).end());
      upstream.end(body);
    });
  };

  const http = createHttpServer((req, res) => handle(req, res, 'http'));
  const https = createHttpsServer(selfSignedCertificate(), (req, res) => handle(req, res, 'https'));
  const listen = (server: typeof http | typeof https) =>
    new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const [httpPort, httpsPort] = await Promise.all([listen(http), listen(https)]);
  return Object.assign(edge, {
    httpPort,
    httpsPort,
    close: async () => {
      http.closeAllConnections();
      https.closeAllConnections();
      await Promise.all([new Promise((r) => http.close(r)), new Promise((r) => https.close(r))]);
    },
  });
}
