/**
 * Re-issues the click cookie from your server (Safari's 7-day cap on script-set cookies).
 *
 * @module @svc/server/cookies
 */
export { persistClickId } from './fetch';
export { svcClickCookie, type ExpressLikeRequest, type ExpressLikeResponse } from './express';
export { svcClickCookieHook, type FastifyLikeRequest, type FastifyLikeReply } from './fastify';
export { clickCookieHeaders, clickIdCookie, clickExpiresCookie, type PersistOptions, type IncomingRequest } from './click-cookie';
export { cookieDomainFor } from './domain';
export { readCookie } from './cookie-header';
