import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProgram,
  html,
  newVisit,
  open,
  scriptTag,
  storeUrl,
  waitForClickCookie,
  type Program,
  type World,
  startWorld,
} from './harness';

// spec/rules.md "What the service does", item 8: the svc_click_id cookie, on the detected root domain, in real Chromium.
describe('svc_click_id cookie', () => {
  let world: World;
  let program: Program;

  beforeAll(async () => {
    world = await startWorld();
    program = await createProgram(world, { windowDays: 45 });
  });
  afterAll(() => world?.close());

  async function land(host: string, options: { scheme?: 'http' | 'https'; attributes?: Record<string, string> } = {}) {
    world.edge.page = () => html(scriptTag(world, { programId: program.id, scheme: options.scheme, attributes: options.attributes }));
    const visit = await newVisit(world);
    const before = Date.now();
    await open(visit, storeUrl(world, host, `/pricing?aff=${program.partners[0]!.link}`, options.scheme));
    const cookie = await waitForClickCookie(visit);
    const cookies = await visit.context.cookies();
    await visit.context.close();
    return { cookie, cookies, before, errors: visit.errors, console: visit.console };
  }

  it('sits on the root domain of www.shop.example.test, Lax, not Secure over HTTP, for the program window', async () => {
    const { cookie, cookies, before, errors, console } = await land('www.shop.example.test');
    expect(cookie.domain).toBe('.example.test');
    expect(cookie.path).toBe('/');
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBe(false);
    expect(cookie.httpOnly).toBe(false);
    const window = program.windowDays * 86_400;
    expect(cookie.expires).toBeGreaterThanOrEqual(before / 1000 + window - 5);
    expect(cookie.expires).toBeLessThanOrEqual(Date.now() / 1000 + window + 5);
    // The probe cookie is gone; the lean build writes svc_click_exp too (its expiry in Unix seconds, with the same
    // attributes), which @svc/server/cookies needs to re-issue the cookie without extending it.
    expect(cookies.map((c) => c.name).sort()).toEqual(['svc_click_exp', 'svc_click_id']);
    const exp = cookies.find((c) => c.name === 'svc_click_exp')!;
    expect(Math.abs(Number(exp.value) - cookie.expires)).toBeLessThanOrEqual(1);
    expect({ ...exp, name: cookie.name, value: cookie.value, expires: cookie.expires }).toEqual(cookie);
    const records = await world.server.control.records(program.id);
    expect(records.clicks.map((c) => c.click_id)).toContain(cookie.value);
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  it('sits on .example.co.uk for shop.example.co.uk, never on the public suffix', async () => {
    const { cookie, cookies } = await land('shop.example.co.uk');
    expect(cookie.domain).toBe('.example.co.uk');
    expect(cookies.some((c) => c.domain === '.co.uk' || c.domain === 'co.uk')).toBe(false);
  });

  it('is host-only on localhost', async () => {
    const { cookie } = await land('localhost');
    expect(cookie.domain).toBe('localhost');
  });

  it('follows data-svc-cookie-domain over the detected root domain', async () => {
    const { cookie } = await land('www.shop.example.test', { attributes: { 'data-svc-cookie-domain': 'shop.example.test' } });
    expect(cookie.domain).toBe('.shop.example.test');
  });

  it('is Secure over HTTPS', async () => {
    const { cookie } = await land('shop.example.test', { scheme: 'https' });
    expect(cookie.secure).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.domain).toBe('.example.test');
  });
});
