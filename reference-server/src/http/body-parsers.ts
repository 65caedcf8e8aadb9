import type { FastifyInstance } from 'fastify';
import { fail } from './http-error';

/** §Limits: maximum body size not shown. Decision: 64 KiB, answered 413 in the platform envelope. */
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
    try {
      return JSON.parse(body) as unknown;
    } catch (cause) {
      throw fail('invalidJson', { cause });
    }
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
