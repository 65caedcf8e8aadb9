import type { FastifyReply, FastifyRequest } from 'fastify';

/** The dashboard session cookie (spec `dashboardSession`): its name and whether it is `Secure`. */
export interface SessionCookie {
  name: string;
  secure: boolean;
}

/**
 * Decided from `PUBLIC_URL`, not from the request: behind a TLS proxy the request itself is plain HTTP. On HTTPS the
 * cookie is `Secure` with the `__Host-` prefix, so no subdomain or plain-HTTP page can set or shadow it (RFC 6265bis
 * section 4.1.3.2).
 */
export function sessionCookieFor(publicUrl: string): SessionCookie {
  const secure = new URL(publicUrl).protocol === 'https:';
  return { name: secure ? '__Host-svc_session' : 'svc_session', secure };
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, Path=/, Secure when the server is reached over HTTPS. */
export function cookieHeader(
  name: string,
  value: string,
  options: { secure: boolean; maxAgeSeconds: number; path?: string; sameSite?: 'Lax' | 'Strict' },
): string {
  const parts = [
    `${name}=${value}`,
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Lax'}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${options.maxAgeSeconds}`,
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

export function setSessionCookie(reply: FastifyReply, cookie: SessionCookie, token: string, maxAgeSeconds: number): void {
  reply.header('Set-Cookie', cookieHeader(cookie.name, token, { secure: cookie.secure, maxAgeSeconds }));
}

export function readSessionToken(request: FastifyRequest, cookie: SessionCookie): string | undefined {
  return readCookie(request.headers.cookie, cookie.name);
}

/** Reads one cookie from a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeCookieValue(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A malformed percent-escape is no cookie (401), not a failure of the route (500). */
function decodeCookieValue(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
