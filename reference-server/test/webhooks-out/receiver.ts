import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { validateWebhookEvent } from '../../src/testing/validate';

/** One request the receiver got, as it got it, and what the Standard Webhooks reference library made of it. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed event, when `standardwebhooks` verified the signature with the receiver's secret. */
  event: any;
  /** Why verification failed (no secret set, bad signature, stale timestamp…); undefined when it passed. */
  verifyError: string | undefined;
  /** Errors of the body against the spec's top-level `webhooks`; empty when it matches. */
  specErrors: string[];
  /** Wall-clock time of arrival (ms). */
  at: number;
  /** The status this receiver answered. */
  status: number;
}

/**
 * What to answer: a status, `'hang'` (never answer), `'redirect'` (302 to `/elsewhere`), a status after a delay, or a
 * status with a body.
 */
export type Answer = number | 'hang' | 'redirect' | { status: number; delayMs: number } | { status: number; body: string };

/**
 * A real HTTP endpoint for outbound webhooks (node:http on 127.0.0.1): it records every request, verifies each with
 * the `standardwebhooks` package against `secret`, checks the body against the spec, and answers what `answer` says
 * (204 by default).
 */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  secret: string | undefined;
  answer: (request: { path: string; count: number }) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    secret: undefined,
    answer: () => 204,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      let event: any;
      let verifyError: string | undefined;
      try {
        if (receiver.secret === undefined) throw new Error('no secret set on the receiver');
        event = new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
      } catch (error) {
        verifyError = (error as Error).message;
      }
      const answer = receiver.answer({ path, count: receiver.received.filter((r) => r.path === path).length + 1 });
      const status = answer === 'hang' ? 0 : answer === 'redirect' ? 302 : typeof answer === 'number' ? answer : answer.status;
      receiver.received.push({
        path,
        headers: req.headers,
        body,
        event,
        verifyError,
        specErrors: validateWebhookEvent(body).errors,
        at: Date.now(),
        status,
      });
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (answer === 'redirect') res.writeHead(302, { location: `${receiver.url}/elsewhere` }).end();
      else if (typeof answer === 'object' && 'body' in answer)
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
      else if (typeof answer === 'object') setTimeout(() => res.writeHead(answer.status).end(), answer.delayMs);
      else res.writeHead(answer).end(answer === 204 ? undefined : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

/** Polls `check` until it returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
