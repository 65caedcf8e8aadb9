import { describe, expect, it } from 'vitest';
import { persistClickId } from './fetch';

/** A recorded expiry past any window (2100-01-01), so the re-issued cookie lasts exactly the window. */
const exp = 'svc_click_exp=4102444800';

describe('persistClickId on standard Request/Response', () => {
  it('appends the cookies to a mutable response', () => {
    const request = new Request('https://www.shop.com/pricing', { headers: { cookie: `svc_click_id=clk_9; ${exp}` } });
    const response = new Response('ok');
    const sent = persistClickId(request, response);
    expect(sent).toBe(response);
    const cookies = sent.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toMatch(/^svc_click_id=clk_9; Path=\/; Max-Age=5184000; .*Domain=shop\.com; SameSite=Lax; Secure$/);
  });

  it('copies an immutable response (a fetch result) and keeps its body and status', async () => {
    const upstream = Response.redirect('http://localhost:3000/next', 302);
    const request = new Request('http://localhost:3000/', { headers: { cookie: `svc_click_id=clk_9; ${exp}` } });
    const sent = persistClickId(request, upstream);
    expect(sent).not.toBe(upstream);
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe('http://localhost:3000/next');
    expect(sent.headers.getSetCookie()[0]).toMatch(/^svc_click_id=clk_9; .*SameSite=Lax$/);
    expect(sent.headers.getSetCookie()[0]).not.toContain('Domain=');
  });

  it('trusts X-Forwarded-Proto for Secure behind a TLS-terminating proxy, and leaves responses alone without a click', () => {
    const request = new Request('http://shop.com/', { headers: { cookie: `svc_click_id=c; ${exp}`, 'x-forwarded-proto': 'https' } });
    expect(persistClickId(request, new Response('')).headers.getSetCookie()[0]).toContain('; Secure');
    const plain = new Response('');
    expect(persistClickId(new Request('http://shop.com/'), plain).headers.getSetCookie()).toEqual([]);
  });
});
