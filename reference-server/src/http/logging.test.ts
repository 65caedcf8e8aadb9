import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLogger, loggerOptions } from './logging';

function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } };
}

describe('the per-request logger', () => {
  it('is made on first use, with the request bindings and the parent redaction', () => {
    const { lines, stream } = capture();
    const parent = pino({ redact: { paths: ['*.token'], censor: '[redacted]' } }, stream);
    const child = vi.spyOn(parent, 'child');
    const logger = lazyChildLogger(parent, { reqId: 'r-1' }, {});
    expect(child).not.toHaveBeenCalled();
    logger.warn({ login: { token: 't0ken' } }, 'first %s', 'line');
    logger.info('second');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { level: 40, reqId: 'r-1', login: { token: '[redacted]' }, msg: 'first line' },
      { level: 30, reqId: 'r-1', msg: 'second' },
    ]);
    expect(logger.level).toBe('info');
  });

  it("carries the request's id in a route's log lines through Fastify", async () => {
    const { lines, stream } = capture();
    const app = Fastify({
      logger: loggerOptions({ level: 'info', stream }) as object,
      childLoggerFactory: lazyChildLogger,
      genReqId: () => 'req-7',
      disableRequestLogging: true,
    });
    app.get('/', async (request) => {
      request.log.error({ cause: 'x' }, 'logged by the route');
      return { ok: true };
    });
    expect((await app.inject('/')).statusCode).toBe(200);
    expect(lines).toMatchObject([{ level: 50, reqId: 'req-7', msg: 'logged by the route' }]);
    await app.close();
  });
});
