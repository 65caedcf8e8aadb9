import { describe, expect, it } from 'vitest';
import { cookieString, parseCookie } from './cookie';

describe('cookieString', () => {
  it('writes a first-party, SameSite=Lax cookie on the given domain', () => {
    expect(cookieString('svc_click_id', 'clk_1', 'example.test', 5_184_000, false)).toBe(
      'svc_click_id=clk_1;path=/;max-age=5184000;domain=example.test;samesite=lax',
    );
  });

  it('adds Secure on HTTPS and leaves Domain out for a host-only cookie', () => {
    expect(cookieString('svc_click_id', 'clk_1', undefined, 60, true)).toBe('svc_click_id=clk_1;path=/;max-age=60;samesite=lax;secure');
  });

  it('encodes the value so that it cannot add attributes', () => {
    expect(cookieString('svc_click_id', 'a;domain=evil', undefined, 1, false)).toMatch(/^svc_click_id=a%3Bdomain%3Devil;path=\//);
  });
});

describe('parseCookie', () => {
  const jar = 'other=1; svc_click_id=clk%20x; svc_click_id_other=no; last=z';

  it('reads and decodes the named cookie only', () => {
    expect(parseCookie(jar, 'svc_click_id')).toBe('clk x');
    expect(parseCookie(jar, 'other')).toBe('1');
    expect(parseCookie(jar, 'last')).toBe('z');
  });

  it('answers undefined for an absent, empty or malformed cookie', () => {
    expect(parseCookie(jar, 'svc_click')).toBeUndefined();
    expect(parseCookie('', 'svc_click_id')).toBeUndefined();
    expect(parseCookie('svc_click_id=', 'svc_click_id')).toBeUndefined();
    expect(parseCookie('svc_click_id=%E0%A4%A', 'svc_click_id')).toBeUndefined();
  });
});
