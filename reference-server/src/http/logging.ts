import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
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
 * synchronous in Node on Linux; they were most of the logging share of a tracking request's CPU, docs/performance-notes.md).
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

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Fastify's per-request child logger (its `childLoggerFactory`), made the first time the request logs through it.
 * Most requests never do (their one line is written by `registerRequestLog`), and a pino child per request (its
 * bindings serialised through the redaction) is CPU every tracking request would pay for nothing.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private call(method: Method, args: unknown[]): void {
    const real = this.real;
    Reflect.apply(real[method], real, args);
  }

  get level(): string {
    return this.real.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  fatal(...args: unknown[]): void {
    this.call('fatal', args);
  }

  error(...args: unknown[]): void {
    this.call('error', args);
  }

  warn(...args: unknown[]): void {
    this.call('warn', args);
  }

  info(...args: unknown[]): void {
    this.call('info', args);
  }

  debug(...args: unknown[]): void {
    this.call('debug', args);
  }

  trace(...args: unknown[]): void {
    this.call('trace', args);
  }

  silent(...args: unknown[]): void {
    this.call('silent', args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a request's logger, made when first used (`LazyChildLogger`). */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}

/**
 * One line per answered request: request id, method, route, path (never the query string: it carries login
 * states and sign-in codes), status and time. Replaces Fastify's two default lines, which log the full URL.
 * These fields are fixed and never hold a credential, so the line is written by a child without the redaction pass
 * (the wildcard paths above walk every object logged, on every request); every other log call stays redacted.
 */
export function registerRequestLog(app: FastifyInstance): void {
  const lines = app.log.child({}, { redact: { paths: [] } });
  // A callback hook, not an async one: every request runs it (http/request-id.ts says why).
  app.addHook('onResponse', (request, reply, done) => {
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
    done();
  });
}
