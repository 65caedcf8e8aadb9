import { clickCookieHeaders, type PersistOptions } from './click-cookie';

/** The parts of Fastify's request and reply the hook uses (no dependency on Fastify's types). */
export interface FastifyLikeRequest {
  headers: { cookie?: string | undefined };
  /** Fastify's `request.hostname` (honours `trustProxy`). */
  hostname: string;
  /** Fastify's `request.protocol` (honours `trustProxy`). */
  protocol: string;
}
export interface FastifyLikeReply {
  header(key: string, value: string): unknown;
}

/** Fastify `onRequest` hook: `app.addHook('onRequest', svcClickCookieHook({ windowDays: 60 }))`. */
export function svcClickCookieHook(options?: PersistOptions) {
  return async (request: FastifyLikeRequest, reply: FastifyLikeReply): Promise<void> => {
    const secure = request.protocol === 'https';
    // Fastify appends repeated `set-cookie` headers instead of replacing them.
    for (const cookie of clickCookieHeaders({ cookie: request.headers.cookie, hostname: request.hostname, secure }, options)) {
      reply.header('set-cookie', cookie);
    }
  };
}
