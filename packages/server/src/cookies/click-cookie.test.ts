import { describe, expect, it } from 'vitest';
import { clickCookieHeaders } from './click-cookie';
import { readCookie } from './cookie-header';

const now = Date.parse('2025-03-01T00:00:00Z');
const nowSeconds = now / 1000;
const day = 86_400;

describe('clickCookieHeaders', () => {
  it('re-issues svc_click_id as a server cookie: SameSite=Lax, Secure on HTTPS, root domain, window lifetime', () => {
    const expires = nowSeconds + 60 * day;
    const cookie = `a=1; svc_click_id=clk_123; svc_click_exp=${expires}; b=2`;
    const [id, exp] = clickCookieHeaders({ cookie, hostname: 'www.shop.com', secure: true }, { now });
    const attributes = `; Path=/; Max-Age=${60 * day}; Expires=${new Date(expires * 1000).toUTCString()}; Domain=shop.com; SameSite=Lax; Secure`;
    expect(id).toBe(`svc_click_id=clk_123${attributes}`);
    expect(exp).toBe(`svc_click_exp=${expires}${attributes}`);
  });

  it('keeps the original expiry (never extends attribution) and caps it at the window', () => {
    const left = 10 * day;
    const [id] = clickCookieHeaders(
      { cookie: `svc_click_id=clk_1; svc_click_exp=${nowSeconds + left}`, hostname: 'localhost', secure: false },
      { now, windowDays: 30 },
    );
    expect(id).toBe(
      `svc_click_id=clk_1; Path=/; Max-Age=${left}; Expires=${new Date((nowSeconds + left) * 1000).toUTCString()}; SameSite=Lax`,
    );
    const [capped] = clickCookieHeaders(
      { cookie: `svc_click_id=clk_1; svc_click_exp=${nowSeconds + 400 * day}`, hostname: 'localhost', secure: false },
      { now, windowDays: 30 },
    );
    expect(capped).toContain(`Max-Age=${30 * day};`);
  });

  it('re-issues nothing without a known, live svc_click_exp: it would extend the click', () => {
    // Absent (the lean tracker used not to write it), garbled, or already past.
    for (const exp of [undefined, '', 'soon', '0', '-5', '1.5', '1e12', '0x7fffffff', `${nowSeconds - 5}`, `${nowSeconds}`]) {
      const cookie = `svc_click_id=clk_1${exp === undefined ? '' : `; svc_click_exp=${exp}`}`;
      expect(clickCookieHeaders({ cookie, hostname: 'localhost', secure: false }, { now, windowDays: 7 }), String(exp)).toEqual([]);
    }
  });

  it('reads svc_click_exp as @svc/browser writes it (Unix seconds) and re-issues it unchanged 20 days later', () => {
    // packages/browser/src/svc.ts, on a click answered with cookie_window_days 30 at a time with milliseconds.
    const landedAt = now + 123;
    const written = Math.floor((landedAt + 30 * 864e5) / 1000);
    const cookie = `svc_click_id=clk_1; svc_click_exp=${written}`;
    const [id, exp] = clickCookieHeaders({ cookie, hostname: 'shop.com', secure: true }, { now: landedAt + 20 * 864e5, windowDays: 30 });
    expect(id).toContain(`; Max-Age=${10 * day}; Expires=${new Date(written * 1000).toUTCString()};`);
    expect(exp).toMatch(new RegExp(`^svc_click_exp=${written};`));
  });

  it('writes nothing without a valid click id', () => {
    expect(clickCookieHeaders({ cookie: 'other=1', hostname: 'shop.com', secure: true })).toEqual([]);
    expect(clickCookieHeaders({ cookie: undefined, hostname: 'shop.com', secure: true })).toEqual([]);
    expect(clickCookieHeaders({ cookie: 'svc_click_id=a%0d%0aSet-Cookie', hostname: 'shop.com', secure: true })).toEqual([]);
  });
});

describe('readCookie', () => {
  it('reads and decodes one cookie', () => {
    expect(readCookie('x=1; svc_click_id=a%20b', 'svc_click_id')).toBe('a b');
    expect(readCookie('svc_click_idx=1', 'svc_click_id')).toBeUndefined();
    expect(readCookie('svc_click_id=%E0%A4%A', 'svc_click_id')).toBeUndefined();
  });
});
