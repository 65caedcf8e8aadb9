import { describe, expect, it } from 'vitest';
import { cookieHeader, readCookie, sessionCookieFor } from './session-cookie';

describe('session cookie', () => {
  it('reads one cookie among several', () => {
    expect(readCookie('a=1; svc_session=abc; b=2', 'svc_session')).toBe('abc');
    expect(readCookie('svc_session_x=1', 'svc_session')).toBeUndefined();
    expect(readCookie('svc_session=%E0%A4%A', 'svc_session')).toBeUndefined();
    expect(readCookie(undefined, 'svc_session')).toBeUndefined();
  });

  it('is HttpOnly, SameSite=Lax, Path=/, and Secure only on HTTPS', () => {
    expect(cookieHeader('svc_session', 'v', { secure: false, maxAgeSeconds: 60 })).toBe(
      'svc_session=v; HttpOnly; SameSite=Lax; Path=/; Max-Age=60',
    );
    expect(cookieHeader('svc_session', 'v', { secure: true, maxAgeSeconds: 60 })).toMatch(/; Secure$/);
  });

  it('takes the __Host- prefix and Secure from an https PUBLIC_URL, whatever the request scheme', () => {
    expect(sessionCookieFor('https://svc.example.com')).toEqual({ name: '__Host-svc_session', secure: true });
    expect(sessionCookieFor('http://127.0.0.1:8787')).toEqual({ name: 'svc_session', secure: false });
  });
});
