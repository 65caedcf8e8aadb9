import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino from 'pino';

/** Where logs go and how much: pino's level (`LOG_LEVEL`) and, in tests, a stream to read them back. */
export interface LogOptions {
  level: string;
  stream?: { write(line: string): void };
}

/**
 * Anything that can hold a credential, wherever a log call puts it (docs/deploying.md, "Logs"): headers, cookies,
 * keys, tokens, login states, secrets. The request line below never logs headers or query strings at all; this
 * list covers what other log calls (errors with their causes) might carry.
 */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.cookie',
  '*.api_key',
  '*.api_token',
  '*.token',
  '*.id_token',
  '*.state',
  '*.secret',
  '*.client_secret',
  '*.webhook_secret',
  '*.password',
];

let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * Standard output through pino's asynchronous destination (sonic-boom, `sync: false`): a log line is queued and
 * written by the event loop in batches, never with a blocking `write(2)` per request (a pipe's writes are
 * synchronous in Node on Linux; they were most of the logging share of a tracking request's CPU, BENCHMARKS.md).
 * pino flushes it on exit. One for the process, shared by every app built in it.
 */
function asyncStdout(): ReturnType<typeof pino.destination> {
  // At most 16 MiB waiting: a reader that stops draining standard output costs log lines, never unbounded memory.
  stdout ??= pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 });
  return stdout;
}

/** Fastify's pino logger options: JSON lines, redacted, or off. */
export function loggerOptions(log: LogOptions | undefined): FastifyServerOptions['logger'] {
  if (!log || log.level === 'silent') return false;
  return {
    level: log.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    stream: log.stream ?? asyncStdout(),
  };
}

/**
 * One line per answered request: request id, method, route, path (never the query string: it carries login
 * states and sign-in codes), status and time. Replaces Fastify's two default lines, which log the full URL.
 * These fields are fixed and never hold a credential, so the line is written by a child without the redaction pass
 * (the wildcard paths above walk every object logged: 4 % of a click's CPU, BENCHMARKS.md); every other log call
 * stays redacted.
 */
export function registerRequestLog(app: FastifyInstance): void {
  const lines = app.log.child({}, { redact: { paths: [] } });
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?', 1)[0];
    lines.info(
      {
        reqId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        path,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
}
