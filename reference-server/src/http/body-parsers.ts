import type { FastifyInstance } from 'fastify';
import { fail } from '../errors/service-error';

/** spec/rules.md "Limits": maximum body size not shown. Decision: 64 KiB, answered 413 in the platform envelope. */
export const bodyLimitBytes = 65_536;

/**
 * JSON bodies, parsed by us so that an empty body reads as "no body" (the control API's `POST /_test/reset`)
 * and a syntax error answers the catalogue's 400. `text/plain` holding JSON is accepted only on routes with
 * `acceptsText` (click and lead: the browser sends them as CORS simple requests, without a preflight).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parse = (body: string) => {
    if (body.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(body) as unknown;
    } catch (cause) {
      throw fail('invalidJson', { cause });
    }
    // PostgreSQL text cannot hold U+0000 (the query fails, a 500), SQLite would store it: refuse it up front
    // so both stores answer the same 400 and nothing is recorded (found by the fuzzer, reference-server/fuzz/).
    if (body.includes('\\u0000') && holdsNul(value)) throw fail('invalidJson');
    return value;
  };
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: bodyLimitBytes }, (_req, body, done) => {
    try {
      done(null, parse(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: bodyLimitBytes }, (request, body, done) => {
    if (request.routeOptions.config?.acceptsText !== true) return done(fail('unsupportedMediaType'), undefined);
    try {
      done(null, parse(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('*', (_request, _payload, done) => done(fail('unsupportedMediaType'), undefined));
}

/** Walks the value with its own stack: recursion overflowed (a 500) on a small body nested thousands deep. */
function holdsNul(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\0')) return true;
    } else if (Array.isArray(value)) {
      pending.push(...(value as unknown[]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) {
        if (key.includes('\0')) return true;
        pending.push(v);
      }
    }
  }
  return false;
}
