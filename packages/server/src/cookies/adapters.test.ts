import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { svcClickCookie, type ExpressLikeResponse } from './express';
import { svcClickCookieHook } from './fastify';

/** A recorded expiry past any window (2100-01-01), so the re-issued cookie lasts exactly the window. */
const exp = 'svc_click_exp=4102444800';

describe('Fastify hook (a real Fastify instance)', () => {
  const app = Fastify({ trustProxy: true });
  app.addHook('onRequest', svcClickCookieHook({ windowDays: 30 }));
  app.get('/', async (_request, reply) => {
    reply.header('set-cookie', 'session=abc; HttpOnly');
    return { ok: true };
  });
  afterAll(() => app.close());

  it('re-issues the click cookie next to the app’s own cookies', async () => {
    const response = await app.inject({
      url: '/',
      headers: { host: 'www.shop.com', cookie: `svc_click_id=clk_5; ${exp}`, 'x-forwarded-proto': 'https' },
    });
    const cookies = response.headers['set-cookie'] as string[];
    expect(cookies).toHaveLength(3);
    expect(cookies[0]).toMatch(/^svc_click_id=clk_5; Path=\/; Max-Age=2592000; .*; Domain=shop\.com; SameSite=Lax; Secure$/);
    expect(cookies[1]).toMatch(/^svc_click_exp=\d+; /);
    expect(cookies[2]).toBe('session=abc; HttpOnly');
  });

  it('sets nothing for a visitor without a click, and no Secure over HTTP', async () => {
    expect((await app.inject({ url: '/', headers: { host: 'shop.com' } })).headers['set-cookie']).toBe('session=abc; HttpOnly');
    const plain = await app.inject({ url: '/', headers: { host: 'localhost:3000', cookie: `svc_click_id=c; ${exp}` } });
    expect((plain.headers['set-cookie'] as string[])[0]).toMatch(/SameSite=Lax$/);
    expect((plain.headers['set-cookie'] as string[])[0]).not.toContain('Domain=');
  });
});

describe('Express middleware', () => {
  it('appends both cookies with res.append and calls next', () => {
    const appended: Array<[string, string[]]> = [];
    const res: ExpressLikeResponse = { append: (field, value) => appended.push([field, value]) };
    let nextCalled = false;
    svcClickCookie()({ headers: { cookie: `svc_click_id=clk_7; ${exp}` }, hostname: 'app.shop.co.uk', secure: true }, res, () => {
      nextCalled = true;
    });
    expect(nextCalled).toBe(true);
    expect(appended).toHaveLength(1);
    expect(appended[0]![0]).toBe('Set-Cookie');
    expect(appended[0]![1][0]).toMatch(/^svc_click_id=clk_7; .*Domain=shop\.co\.uk; SameSite=Lax; Secure$/);
  });
});
