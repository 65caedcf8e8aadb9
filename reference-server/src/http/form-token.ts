import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signInFormMs } from '../domain/login/lifetimes';
import { cookieHeader, readCookie } from './session-cookie';

const cookieName = 'svc_form';

const sign = (key: string, nonce: string) => createHmac('sha256', key).update(`svc-form:${nonce}`).digest('base64url');

/**
 * CSRF protection of the development sign-in form (signed double-submit, OWASP CSRF cheat sheet): the page sets a
 * random nonce in an HttpOnly cookie and puts its HMAC under the server secret in the form; a post counts only when
 * both arrive and agree. Another site can make a browser post, but can neither read the form nor set the cookie.
 */
export function issueFormToken(reply: FastifyReply, key: string, secure: boolean): string {
  const nonce = randomBytes(24).toString('base64url');
  reply.header(
    'Set-Cookie',
    cookieHeader(cookieName, nonce, { secure, maxAgeSeconds: signInFormMs / 1000, path: '/auth', sameSite: 'Strict' }),
  );
  return sign(key, nonce);
}

export function formTokenValid(request: FastifyRequest, key: string, token: unknown): boolean {
  const nonce = readCookie(request.headers.cookie, cookieName);
  if (!nonce || typeof token !== 'string') return false;
  const expected = Buffer.from(sign(key, nonce));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
