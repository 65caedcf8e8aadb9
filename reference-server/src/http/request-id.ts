import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const wellFormed = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a well-formed incoming `X-Request-ID` (so a caller can correlate), else mint a UUID. */
export function requestIdFor(request: { headers: FastifyRequest['headers'] }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && wellFormed.test(incoming) ? incoming : randomUUID();
}

/** spec/rules.md "Request ids": `X-Request-ID` on responses, except `GET /cli/status` where only its 500 carries one. */
export function registerRequestId(app: FastifyInstance): void {
  // Callback hooks, here and in the other hooks every request runs: an async one costs a promise and its turns of
  // the microtask queue per request (docs/performance-notes.md, "The hot path, seventh pass").
  app.addHook('onSend', (request, reply, payload, done) => {
    const onlyOn500 = request.routeOptions.config?.requestIdOnlyOn500 === true;
    if (!onlyOn500 || reply.statusCode === 500) reply.header('X-Request-ID', request.id);
    done(null, payload);
  });
}
