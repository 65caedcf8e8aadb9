import type { FastifyInstance, FastifyServerOptions } from 'fastify';

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

/** Fastify's pino logger options: JSON lines, redacted, or off. */
export function loggerOptions(log: LogOptions | undefined): FastifyServerOptions['logger'] {
  if (!log || log.level === 'silent') return false;
  return {
    level: log.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    ...(log.stream ? { stream: log.stream } : {}),
  };
}

/**
 * One line per answered request: request id, method, route, path (never the query string: it carries login
 * states and sign-in codes), status and time. Replaces Fastify's two default lines, which log the full URL.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?', 1)[0];
    request.log.info(
      {
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
