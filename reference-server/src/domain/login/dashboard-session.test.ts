import { describe, expect, it } from 'vitest';
import { readCookie, sessionCookie } from './dashboard-session';

describe('session cookie', () => {
  it('reads one cookie among several', () => {
    expect(readCookie('a=1; svc_session=abc; b=2', 'svc_session')).toBe('abc');
    expect(readCookie('svc_session_x=1', 'svc_session')).toBeUndefined();
    expect(readCookie(undefined, 'svc_session')).toBeUndefined();
  });

  it('is HttpOnly, SameSite=Lax, Path=/, and Secure only on HTTPS', () => {
    expect(sessionCookie('v', { secure: false, maxAgeSeconds: 60 })).toBe('svc_session=v; HttpOnly; SameSite=Lax; Path=/; Max-Age=60');
    expect(sessionCookie('v', { secure: true, maxAgeSeconds: 60 })).toMatch(/; Secure$/);
  });
});
